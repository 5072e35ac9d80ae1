//! Rings left behind: what the retrace's beam adds to a board's distance so that it does not
//! walk past work it will have to come back for.
//!
//! Every move swaps the blank with a tile, so the tiles' permutation splits into the blank's
//! cycle and *rings*, cycles the blank is not part of. A ring next to a cell of the blank's
//! cycle is on the blank's way home and costs nothing extra, and so is a ring next to such a
//! ring, which the blank passes while it takes that one in. A ring the blank has left behind
//! costs a trip out to it and back over solved tiles, twice its distance from the blank's way
//! less one: the ring's *debt*. Without it, the beam's distance cannot tell a board that
//! took a ring in passing from one that left it behind, and the rings left behind decide how
//! long the whole walk is.

use crate::board::Coordinates;
use crate::solver::helper_threads::Helpers;

/// The cells (boards times their cells) from which a layer's debts are split over a lent core:
/// below it, starting the thread costs more than it saves.
const PARALLEL_CELLS: usize = 1 << 18;

/// How far, in rows and columns, the debt looks from a ring for the blank's cycle: a ring
/// further out owes as much as one this far.
const REACH: u32 = 30;

/// The debts of a beam's layers: on the beam's own thread, and for a large layer half of
/// them on a core its [`Helpers`] lend, each thread with its own [`Rings`].
pub(super) struct Debts {
    mine: Rings,
    spare: Option<Rings>,
    helpers: Helpers,
}

impl Debts {
    /// Debts of `n`×`n` boards, with the cores `helpers` lend.
    pub(super) fn new(n: usize, helpers: Helpers) -> Debts {
        Debts { mine: Rings::new(n), spare: None, helpers }
    }

    /// [`Rings::debt_after`].
    pub(super) fn after(&self, board: &[u16], blank: usize, from: usize, debt: u32) -> Option<u32> {
        self.mine.debt_after(board, blank, from, debt)
    }

    /// [`Rings::debt`] of one board.
    pub(super) fn one(&mut self, board: &[u16], blank: usize) -> u32 {
        self.mine.debt(board, blank)
    }

    /// [`Rings::debt`] of each `(index, blank)` of `wanted`, the board at `index` of `boards`
    /// (boards of `cells` cells one after another), in order.
    pub(super) fn of(&mut self, boards: &[u16], cells: usize, wanted: &[(usize, usize)]) -> Vec<u32> {
        let debt = |rings: &mut Rings, &(index, blank): &(usize, usize)| {
            rings.debt(&boards[index * cells..(index + 1) * cells], blank)
        };
        let parallel = wanted.len() * cells >= PARALLEL_CELLS && self.helpers.threads() > 0;
        let Some(lease) = parallel.then(|| self.helpers.lend()).flatten() else {
            return wanted.iter().map(|board| debt(&mut self.mine, board)).collect();
        };
        let spare = self.spare.get_or_insert_with(|| Rings::new(self.mine.n));
        let (first, second) = wanted.split_at(wanted.len() / 2);
        let debts = std::thread::scope(|scope| {
            let helper = scope.spawn(|| second.iter().map(|board| debt(spare, board)).collect::<Vec<_>>());
            let mut debts: Vec<u32> = first.iter().map(|board| debt(&mut self.mine, board)).collect();
            debts.extend(helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
            debts
        });
        drop(lease);
        debts
    }
}

/// Scratch to reckon the debts of one size's boards without allocating.
pub(super) struct Rings {
    n: usize,
    /// By cell: `stamp` on the blank's way, `stamp + 1` on a ring off it.
    mark: Vec<u32>,
    stamp: u32,
    /// The cells of the board in hand whose tile is not at home.
    misplaced: Vec<usize>,
    /// The neighbours' rows and columns without a division.
    coordinates: Coordinates,
    /// The cells of the rings, each ring a range in `spans`; by cell, its ring's index in `spans`.
    ring: Vec<usize>,
    spans: Vec<(usize, usize)>,
    ring_of: Vec<u32>,
    /// The cells of the blank's way: its cycle and the rings that joined it.
    way: Vec<usize>,
    /// By cell: `visit` once the current ring's search has reached it.
    seen: Vec<u32>,
    visit: u32,
    queue: Vec<usize>,
}

impl Rings {
    /// The rings of `n`×`n` boards with each tile named by the cell it counts as home, plus one.
    pub(super) fn new(n: usize) -> Rings {
        let cells = n * n;
        Rings {
            n,
            mark: vec![0; cells],
            stamp: 0,
            misplaced: Vec::new(),
            coordinates: Coordinates::new(n),
            ring: Vec::new(),
            spans: Vec::new(),
            ring_of: vec![0; cells],
            way: Vec::new(),
            seen: vec![0; cells],
            visit: 0,
            queue: Vec::new(),
        }
    }

    /// The moves the rings `board` has left behind will cost beyond its distance: for each,
    /// twice the way out to it, with the blank at `blank`. Every tile must count a distinct
    /// cell as home, as when no tile is held.
    pub(super) fn debt(&mut self, board: &[u16], blank: usize) -> u32 {
        let last_cell = board.len() - 1;
        let home = |cell: usize| if board[cell] == 0 { last_cell } else { usize::from(board[cell]) - 1 };
        self.stamp += 2;
        let (on_blank, walked) = (self.stamp, self.stamp + 1);
        self.way.clear();
        let mut cell = blank;
        loop {
            self.mark[cell] = on_blank;
            self.way.push(cell);
            cell = home(cell);
            if cell == blank {
                break;
            }
        }
        self.ring.clear();
        self.spans.clear();
        misplaced(board, &mut self.misplaced);
        for index in 0..self.misplaced.len() {
            let start = self.misplaced[index];
            if board[start] == 0 || self.mark[start] >= on_blank {
                continue;
            }
            let first = self.ring.len();
            let mut cell = start;
            loop {
                self.mark[cell] = walked;
                self.ring_of[cell] = self.spans.len() as u32;
                self.ring.push(cell);
                cell = home(cell);
                if cell == start {
                    break;
                }
            }
            self.spans.push((first, self.ring.len()));
        }
        // A ring next to the blank's way joins it, and so does a ring next to one that joined:
        // a flood over the way from the blank's cycle.
        let mut index = 0;
        while index < self.way.len() {
            for next in self.around(self.way[index]).into_iter().flatten() {
                if self.mark[next] == walked {
                    let (first, last) = self.spans[self.ring_of[next] as usize];
                    for ring_index in first..last {
                        let cell = self.ring[ring_index];
                        self.mark[cell] = on_blank;
                        self.way.push(cell);
                    }
                }
            }
            index += 1;
        }
        let mut debt = 0;
        for index in 0..self.spans.len() {
            let (first, last) = self.spans[index];
            if self.mark[self.ring[first]] == walked {
                debt += 2 * (self.reach((first, last), on_blank) - 1);
            }
        }
        debt
    }

    /// The debt after sliding the tile at `from` into the blank at `blank` of `board`, whose
    /// debt is `debt`, when it is known without reckoning it again:
    /// - A tile neither at home nor going home lies on a ring of the blank's way (it is next to
    ///   the blank), and the slide only merges that ring into the blank's cycle or splits off a
    ///   ring that touches it: the way covers the same cells, and the debt is the same.
    /// - A tile at home moved: its cell joins the way, and a debt can only fall, so none stays
    ///   none.
    /// - A tile taken home: the blank's cell leaves the way, and with no debt and no other
    ///   misplaced cell next to it, no ring loses its way through it.
    pub(super) fn debt_after(&self, board: &[u16], blank: usize, from: usize, debt: u32) -> Option<u32> {
        let home = usize::from(board[from]) - 1;
        if home != from && home != blank {
            return Some(debt);
        }
        if debt > 0 {
            return None;
        }
        let alone = || {
            self.around(blank).into_iter().flatten().all(|cell| cell == from || usize::from(board[cell]) == cell + 1)
        };
        (home == from || alone()).then_some(0)
    }

    /// The cells next to `cell`.
    fn around(&self, cell: usize) -> [Option<usize>; 4] {
        let (n, (row, column)) = (self.n, self.coordinates.row_and_column(cell));
        [
            (row > 0).then(|| cell - n),
            (row + 1 < n).then(|| cell + n),
            (column > 0).then(|| cell - 1),
            (column + 1 < n).then(|| cell + 1),
        ]
    }

    /// How many steps from the ring at `self.ring[first..last]` the nearest cell marked
    /// `on_blank` is, at least 2 (the ring touches no such cell) and at most [`REACH`].
    fn reach(&mut self, (first, last): (usize, usize), on_blank: u32) -> u32 {
        self.visit += 1;
        let visit = self.visit;
        self.queue.clear();
        for &cell in &self.ring[first..last] {
            self.seen[cell] = visit;
            self.queue.push(cell);
        }
        let mut start = 0;
        for radius in 1..REACH {
            let end = self.queue.len();
            for index in start..end {
                for next in self.around(self.queue[index]).into_iter().flatten() {
                    if self.mark[next] == on_blank {
                        return radius;
                    }
                    if self.seen[next] != visit {
                        self.seen[next] = visit;
                        self.queue.push(next);
                    }
                }
            }
            start = end;
        }
        REACH
    }
}

/// Puts in `found` the cells of `board` whose tile is not the one that counts it as home (the
/// blank's among them), in order: compared a block at a time into a mask of the cells that
/// differ, which the compiler does many cells at once.
fn misplaced(board: &[u16], found: &mut Vec<usize>) {
    const BLOCK: usize = 32;
    found.clear();
    let mut blocks = board.chunks_exact(BLOCK);
    for (index, block) in (&mut blocks).enumerate() {
        let first = index * BLOCK;
        let home = (first + 1) as u16;
        let mut differs = 0u32;
        for (offset, &tile) in block.iter().enumerate() {
            differs |= u32::from(tile != home.wrapping_add(offset as u16)) << offset;
        }
        while differs != 0 {
            found.push(first + differs.trailing_zeros() as usize);
            differs &= differs - 1;
        }
    }
    let first = board.len() - blocks.remainder().len();
    found.extend((first..board.len()).filter(|&cell| usize::from(board[cell]) != cell + 1));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::{Rng, random_slide};

    /// `rows` with each tile named by its home cell plus one, and its blank.
    fn board(rows: &[&[u16]]) -> (usize, Vec<u16>, usize) {
        let tiles: Vec<u16> = rows.concat();
        let blank = tiles.iter().position(|&tile| tile == 0).expect("a blank");
        (rows.len(), tiles, blank)
    }

    #[test]
    fn the_goal_and_a_ring_on_the_blanks_way_owe_nothing() {
        let (n, goal, blank) = board(&[&[1, 2, 3, 4], &[5, 6, 7, 8], &[9, 10, 11, 12], &[13, 14, 15, 0]]);
        assert_eq!(Rings::new(n).debt(&goal, blank), 0);
        // Tiles 1 and 2 swapped, the one above the blank; the blank's cycle holds tile 6 besides.
        let (n, tiles, blank) = board(&[&[2, 1, 3, 4], &[15, 0, 7, 8], &[9, 10, 11, 12], &[13, 14, 5, 6]]);
        assert_eq!(Rings::new(n).debt(&tiles, blank), 0);
    }

    #[test]
    fn a_ring_next_to_one_on_the_blanks_way_owes_nothing() {
        // Cells 11 and 14 swapped, next to the blank at home; cells 6 and 10 swapped, two steps
        // from the blank but next to cell 11.
        let (n, tiles, blank) = board(&[&[1, 2, 3, 4], &[5, 6, 11, 8], &[9, 10, 7, 15], &[13, 14, 12, 0]]);
        assert_eq!(Rings::new(n).debt(&tiles, blank), 0);
    }

    #[test]
    fn a_ring_left_behind_owes_twice_its_way_out() {
        // Tiles 1 and 2 swapped in the top corner, five steps from the blank's cycle: the blank
        // alone, at home in the bottom corner.
        let (n, tiles, blank) = board(&[&[2, 1, 3, 4], &[5, 6, 7, 8], &[9, 10, 11, 12], &[13, 14, 15, 0]]);
        assert_eq!(Rings::new(n).debt(&tiles, blank), 2 * (5 - 1));
    }

    #[test]
    fn a_debt_known_without_reckoning_is_the_one_reckoned() {
        // 8×8 boards walked from the goal, a slide at a time: wherever the debt after a slide is
        // known without reckoning, it must be the one reckoned.
        let n = 8;
        let mut rings = Rings::new(n);
        let (mut known, mut owed, mut reckoned) = (0, 0, 0);
        for seed in 1..=20 {
            let mut tiles: Vec<u16> = (1..(n * n) as u16).chain([0]).collect();
            let mut blank = n * n - 1;
            let mut rng = Rng::new(seed);
            for step in 0..400 {
                let from = random_slide(n, blank, &mut rng);
                let before = rings.debt(&tiles, blank);
                let after = rings.debt_after(&tiles, blank, from, before);
                tiles.swap(from, blank);
                blank = from;
                let debt = rings.debt(&tiles, blank);
                match after {
                    Some(after) => {
                        assert_eq!(debt, after, "seed {seed}, step {step}");
                        known += 1;
                        owed += usize::from(debt > 0);
                    }
                    None => reckoned += 1,
                }
            }
        }
        // Both kinds of slide came, and known debts above zero among them.
        assert!(known > 1_000 && owed > 0 && reckoned > 0, "{known} known ({owed} owed), {reckoned} reckoned");
    }

    #[test]
    fn a_layer_split_over_a_lent_core_owes_what_one_thread_reckons() {
        // 64 boards of 64×64 along a walk of the blank: enough cells to split the layer.
        let n = 64;
        let mut tiles: Vec<u16> = (1..(n * n) as u16).chain([0]).collect();
        let mut blank = n * n - 1;
        let (mut boards, mut wanted) = (Vec::new(), Vec::new());
        let mut rng = Rng::new(70);
        while wanted.len() < 64 {
            for _ in 0..8 {
                let from = random_slide(n, blank, &mut rng);
                tiles.swap(from, blank);
                blank = from;
            }
            wanted.push((wanted.len(), blank));
            boards.extend_from_slice(&tiles);
        }
        assert!(wanted.len() * n * n >= PARALLEL_CELLS);
        let mut alone = Rings::new(n);
        let one_by_one: Vec<u32> = wanted
            .iter()
            .map(|&(index, blank)| alone.debt(&boards[index * n * n..(index + 1) * n * n], blank))
            .collect();
        let split = Debts::new(n, Helpers::dedicated(1)).of(&boards, n * n, &wanted);
        assert_eq!(split, one_by_one);
        assert!(one_by_one.iter().any(|&debt| debt > 0), "some board owes a debt");
    }
}
