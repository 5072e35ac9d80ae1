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

use std::ops::Range;

use crate::board::Coordinates;

/// How far, in rows and columns, the debt looks from a ring for the blank's way: a ring
/// further out owes as much as one this far.
const REACH: u32 = 30;

/// A ring the blank's way has left behind: one of its cells, and how many steps the nearest
/// cell of the way is from it, at least 2 and at most [`REACH`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct LeftBehind {
    cell: u32,
    reach: u32,
}

/// What the rings left behind owe: twice the way out to each, less one.
pub(super) fn debt(left_behind: &[LeftBehind]) -> u32 {
    left_behind.iter().map(|ring| 2 * (ring.reach - 1)).sum()
}

/// Scratch to find the rings left behind of one size's boards without allocating. Every
/// board read names each tile by the cell it counts as home, plus one, with no two tiles
/// counting the same cell (no tile held).
pub(super) struct Rings {
    n: usize,
    coordinates: Coordinates,
    /// By cell: `stamp` on the blank's way (after a slide, on its cycle), `stamp + 1` on a ring
    /// left behind.
    mark: Vec<u32>,
    stamp: u32,
    /// The cells of the board in hand whose tile is not at home.
    misplaced: Vec<usize>,
    /// The cells of the rings in hand, each ring a range in `spans`; by cell, its ring's index
    /// in `spans`.
    ring: Vec<usize>,
    spans: Vec<(usize, usize)>,
    ring_of: Vec<u32>,
    /// By ring in `spans`: whether it has joined the blank's way.
    on_way: Vec<bool>,
    /// The cells of the blank's way: its cycle and the rings that joined it.
    way: Vec<usize>,
    /// By cell: `visit` once the current flood has reached it.
    seen: Vec<u32>,
    visit: u32,
    /// By row, a bit a column: the cells of the blank's way, and the cells within a radius of
    /// a ring, as [`Self::reach`] grows it.
    way_rows: Vec<u128>,
    near: Vec<u128>,
    nearer: Vec<u128>,
}

impl Rings {
    /// The rings of `n`×`n` boards.
    pub(super) fn new(n: usize) -> Rings {
        let cells = n * n;
        Rings {
            n,
            coordinates: Coordinates::new(n),
            mark: vec![0; cells],
            stamp: 0,
            misplaced: Vec::new(),
            ring: Vec::new(),
            spans: Vec::new(),
            ring_of: vec![0; cells],
            on_way: Vec::new(),
            way: Vec::new(),
            seen: vec![0; cells],
            visit: 0,
            way_rows: vec![0; n],
            near: vec![0; n],
            nearer: vec![0; n],
        }
    }

    /// Appends to `out` the rings `board` has left behind, with the blank at `blank`, reckoned
    /// from the whole board.
    pub(super) fn left_behind(&mut self, board: &[u16], blank: usize, out: &mut Vec<LeftBehind>) {
        self.stamp += 2;
        let (on_way, walked) = (self.stamp, self.stamp + 1);
        self.way.clear();
        let mut cell = blank;
        loop {
            self.mark[cell] = on_way;
            self.way.push(cell);
            cell = home(board, cell);
            if cell == blank {
                break;
            }
        }
        self.ring.clear();
        self.spans.clear();
        misplaced(board, &mut self.misplaced);
        for index in 0..self.misplaced.len() {
            let start = self.misplaced[index];
            if board[start] == 0 || self.mark[start] >= on_way {
                continue;
            }
            let (first, last) = self.push_ring(board, start);
            for ring_index in first..last {
                let cell = self.ring[ring_index];
                self.mark[cell] = walked;
                self.ring_of[cell] = self.spans.len() as u32;
            }
            self.spans.push((first, last));
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
                        self.mark[cell] = on_way;
                        self.way.push(cell);
                    }
                }
            }
            index += 1;
        }
        way_rows(self.n, &mut self.way_rows, |cell| self.mark[cell] == on_way);
        for index in 0..self.spans.len() {
            let (first, last) = self.spans[index];
            if self.mark[self.ring[first]] == walked {
                let reach = self.reach(first..last, blank);
                out.push(LeftBehind { cell: self.ring[first] as u32, reach });
            }
        }
    }

    /// Appends to `out` the rings left behind once the tile at `from` of a board whose rings
    /// left behind are `before` has slid into the blank at `blank`; `board` is the board after
    /// the slide. Only the cells the slide touched are looked at, and the rings near them:
    /// - A tile neither at home nor going home lies on a ring of the blank's way (it is next to
    ///   the blank), and the slide only merges that ring into the blank's cycle or splits off a
    ///   ring that touches it: the way covers the same cells, and the same rings are left
    ///   behind.
    /// - A tile at home moved: its cell joins the blank's cycle, and the rings left behind next
    ///   to it (or to one that joins) join the way; the others may come nearer ([`Self::home_left`]).
    /// - A tile taken home: the blank's cell leaves the way, and with it any ring whose only
    ///   link to the blank's cycle ran through it; the rings left behind may lie further away
    ///   ([`Self::gone_home`]).
    pub(super) fn after(
        &mut self,
        board: &[u16],
        blank: usize,
        from: usize,
        before: &[LeftBehind],
        out: &mut Vec<LeftBehind>,
    ) {
        let home = usize::from(board[blank]) - 1;
        if home == from {
            self.home_left(board, from, before, out);
        } else if home == blank {
            self.gone_home(board, blank, from, before, out);
        } else {
            out.extend_from_slice(before);
        }
    }

    /// [`Self::after`] once a tile at home left `from` for the blank's cell.
    fn home_left(&mut self, board: &[u16], from: usize, before: &[LeftBehind], out: &mut Vec<LeftBehind>) {
        self.ring.clear();
        self.spans.clear();
        for ring in before {
            let span = self.push_ring(board, ring.cell as usize);
            self.spans.push(span);
        }
        self.on_way.clear();
        self.on_way.resize(before.len(), false);
        loop {
            let mut grew = false;
            for index in 0..before.len() {
                if !self.on_way[index] && self.nearest(index, from, |other| self.on_way[other]) == 1 {
                    self.on_way[index] = true;
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
        for (index, ring) in before.iter().enumerate() {
            if !self.on_way[index] {
                let reach = ring.reach.min(self.nearest(index, from, |other| self.on_way[other]));
                out.push(LeftBehind { cell: ring.cell, reach });
            }
        }
    }

    /// The fewest steps from the ring at `spans[index]` to `cell`, or to a ring of `spans`
    /// that `picked` picks by its index.
    fn nearest(&self, index: usize, cell: usize, picked: impl Fn(usize) -> bool) -> u32 {
        let (first, last) = self.spans[index];
        let picked_cells = self.spans.iter().enumerate().filter(|&(other, _)| picked(other));
        let picked_cells = picked_cells.flat_map(|(_, &(other_first, other_last))| &self.ring[other_first..other_last]);
        let others = picked_cells.copied().chain([cell]);
        let ring = &self.ring[first..last];
        ring.iter().flat_map(|&from| others.clone().map(move |to| self.distance(from, to))).min().unwrap_or(u32::MAX)
    }

    /// [`Self::after`] once a tile went home from `from` to the blank's cell `blank`.
    fn gone_home(
        &mut self,
        board: &[u16],
        blank: usize,
        from: usize,
        before: &[LeftBehind],
        out: &mut Vec<LeftBehind>,
    ) {
        self.stamp += 2;
        let (on_cycle, behind) = (self.stamp, self.stamp + 1);
        let on_way = move |mark: &[u32], board: &[u16], cell: usize| mark[cell] != behind && !is_home(board, cell);
        self.ring.clear();
        self.spans.clear();
        for ring in before {
            let (first, last) = self.push_ring(board, ring.cell as usize);
            self.ring[first..last].iter().for_each(|&cell| self.mark[cell] = behind);
            self.spans.push((first, last));
        }
        let kept = self.spans.len();
        // A misplaced cell next to `blank` (but `from`) lies on the blank's cycle or on a ring of
        // its way; the ring leaves the way with every ring linked to it, unless the link reaches
        // the blank's cycle another way.
        let attached = self.around(blank).map(|cell| cell.filter(|&cell| cell != from && !is_home(board, cell)));
        if attached.iter().any(Option::is_some) {
            let mut cell = from;
            loop {
                self.mark[cell] = on_cycle;
                cell = home(board, cell);
                if cell == from {
                    break;
                }
            }
            for start in attached.into_iter().flatten() {
                if self.mark[start] != on_cycle && self.mark[start] != behind {
                    self.leave_if_cut(board, start, on_cycle, behind);
                }
            }
        }
        // The way only lost cells: `blank` and the rings cut off. A ring at [`REACH`] stays
        // there, and one nearer than all of them kept its nearest cell of the way; one as near
        // as `blank` alone is as near as before or one step further, `from` being on the way.
        let cut = kept..self.spans.len();
        if !cut.is_empty() {
            way_rows(self.n, &mut self.way_rows, |cell| on_way(&self.mark, board, cell));
        }
        for index in 0..self.spans.len() {
            let (first, last) = self.spans[index];
            let reach = match before.get(index) {
                Some(ring) if ring.reach == REACH => ring.reach,
                Some(ring) => {
                    let nearest_lost = self.nearest(index, blank, |other| cut.contains(&other));
                    if nearest_lost > ring.reach {
                        ring.reach
                    } else if cut.is_empty() {
                        let found = self.any_at(first..last, ring.reach, |cell| on_way(&self.mark, board, cell));
                        ring.reach + u32::from(!found)
                    } else {
                        self.reach(first..last, from)
                    }
                }
                None => self.reach(first..last, from),
            };
            out.push(LeftBehind { cell: self.ring[first] as u32, reach });
        }
    }

    /// Whether some cell exactly `radius` steps from a cell of the ring at `self.ring[cells]`
    /// is `wanted`.
    fn any_at(&self, cells: Range<usize>, radius: u32, wanted: impl Fn(usize) -> bool) -> bool {
        let (n, radius) = (self.n as isize, radius as isize);
        self.ring[cells].iter().any(|&cell| {
            let (row, column) = self.coordinates.row_and_column(cell);
            let (row, column) = (row as isize, column as isize);
            (-radius..=radius).any(|rows| {
                let columns = radius - rows.abs();
                let at = |column: isize| {
                    let row = row + rows;
                    (0..n).contains(&row) && (0..n).contains(&column) && wanted((row * n + column) as usize)
                };
                at(column - columns) || (columns > 0 && at(column + columns))
            })
        })
    }

    /// Takes off the blank's way the ring of `start` and every ring linked to it, unless the
    /// link reaches a cell marked `on_cycle` (the blank's cycle): each ring cut off is appended
    /// to `spans`, its cells marked `behind`.
    fn leave_if_cut(&mut self, board: &[u16], start: usize, on_cycle: u32, behind: u32) {
        self.visit += 1;
        let visit = self.visit;
        let (first_ring, first_cell) = (self.spans.len(), self.ring.len());
        self.push_seen_ring(board, start, visit);
        let mut index = first_cell;
        while index < self.ring.len() {
            for next in self.around(self.ring[index]).into_iter().flatten() {
                if self.seen[next] == visit || is_home(board, next) {
                    continue;
                }
                if self.mark[next] == on_cycle {
                    self.ring.truncate(first_cell);
                    self.spans.truncate(first_ring);
                    return;
                }
                self.push_seen_ring(board, next, visit);
            }
            index += 1;
        }
        for index in first_cell..self.ring.len() {
            self.mark[self.ring[index]] = behind;
        }
    }

    /// [`Self::push_ring`], its span appended to `spans` and its cells marked `visit`.
    fn push_seen_ring(&mut self, board: &[u16], start: usize, visit: u32) {
        let (first, last) = self.push_ring(board, start);
        for index in first..last {
            self.seen[self.ring[index]] = visit;
        }
        self.spans.push((first, last));
    }

    /// Appends to `ring` the cells of the cycle through `start`, and gives their range.
    fn push_ring(&mut self, board: &[u16], start: usize) -> (usize, usize) {
        let first = self.ring.len();
        let mut cell = start;
        loop {
            self.ring.push(cell);
            cell = home(board, cell);
            if cell == start {
                break;
            }
        }
        (first, self.ring.len())
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

    /// The steps between cells `a` and `b`: rows plus columns.
    fn distance(&self, a: usize, b: usize) -> u32 {
        let ((row_a, column_a), (row_b, column_b)) =
            (self.coordinates.row_and_column(a), self.coordinates.row_and_column(b));
        (row_a.abs_diff(row_b) + column_a.abs_diff(column_b)) as u32
    }

    /// How many steps from the ring at `self.ring[cells]` the nearest cell of the blank's way
    /// (`way_rows`) is, at least 2 (the ring touches no such cell) and at most [`REACH`]: the
    /// cells within one more step of the ring each time, a row at a time, no further out than
    /// the blank, at `blank`, which is on the way.
    fn reach(&mut self, cells: Range<usize>, blank: usize) -> u32 {
        let ring = &self.ring[cells];
        let at_most = ring.iter().map(|&cell| self.distance(cell, blank)).fold(REACH, u32::min);
        let rows = ring.iter().map(|&cell| self.coordinates.row_and_column(cell).0);
        let (mut top, mut bottom) = (rows.clone().min().unwrap_or(0), rows.max().unwrap_or(0));
        self.near[top..=bottom].fill(0);
        for &cell in ring {
            let (row, column) = self.coordinates.row_and_column(cell);
            self.near[row] |= 1 << column;
        }
        let columns = if self.n == 128 { u128::MAX } else { (1u128 << self.n) - 1 };
        for radius in 1..at_most {
            let (above, below) = (top.saturating_sub(1), (bottom + 1).min(self.n - 1));
            for row in above..=below {
                let inside = |row: usize| (top..=bottom).contains(&row);
                let here = if inside(row) { self.near[row] } else { 0 };
                let up = if row > 0 && inside(row - 1) { self.near[row - 1] } else { 0 };
                let down = if inside(row + 1) { self.near[row + 1] } else { 0 };
                self.nearer[row] = (here | here << 1 | here >> 1 | up | down) & columns;
            }
            (top, bottom) = (above, below);
            std::mem::swap(&mut self.near, &mut self.nearer);
            if (top..=bottom).any(|row| self.near[row] & self.way_rows[row] != 0) {
                return radius;
            }
        }
        at_most
    }
}

/// Sets `rows` to the cells of an `n`×`n` board that `wanted` picks, a row a mask.
fn way_rows(n: usize, rows: &mut [u128], wanted: impl Fn(usize) -> bool) {
    for (row, mask) in rows.iter_mut().enumerate() {
        *mask = (0..n).fold(0, |mask, column| mask | u128::from(wanted(row * n + column)) << column);
    }
}

/// The cell the tile at `cell` of `board` counts as home; the blank's is the last.
fn home(board: &[u16], cell: usize) -> usize {
    match board[cell] {
        0 => board.len() - 1,
        tile => usize::from(tile) - 1,
    }
}

/// Whether the tile at `cell` of `board` is at home (the blank never is).
fn is_home(board: &[u16], cell: usize) -> bool {
    usize::from(board[cell]) == cell + 1
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

    /// The debt of `tiles` reckoned from the whole board.
    fn reckoned(rings: &mut Rings, tiles: &[u16], blank: usize) -> u32 {
        let mut left_behind = Vec::new();
        rings.left_behind(tiles, blank, &mut left_behind);
        debt(&left_behind)
    }

    #[test]
    fn the_goal_and_a_ring_on_the_blanks_way_owe_nothing() {
        let (n, goal, blank) = board(&[&[1, 2, 3, 4], &[5, 6, 7, 8], &[9, 10, 11, 12], &[13, 14, 15, 0]]);
        assert_eq!(reckoned(&mut Rings::new(n), &goal, blank), 0);
        // Tiles 1 and 2 swapped, the one above the blank; the blank's cycle holds tile 6 besides.
        let (n, tiles, blank) = board(&[&[2, 1, 3, 4], &[15, 0, 7, 8], &[9, 10, 11, 12], &[13, 14, 5, 6]]);
        assert_eq!(reckoned(&mut Rings::new(n), &tiles, blank), 0);
    }

    #[test]
    fn a_ring_next_to_one_on_the_blanks_way_owes_nothing() {
        // Cells 11 and 14 swapped, next to the blank at home; cells 6 and 10 swapped, two steps
        // from the blank but next to cell 11.
        let (n, tiles, blank) = board(&[&[1, 2, 3, 4], &[5, 6, 11, 8], &[9, 10, 7, 15], &[13, 14, 12, 0]]);
        assert_eq!(reckoned(&mut Rings::new(n), &tiles, blank), 0);
    }

    #[test]
    fn a_ring_left_behind_owes_twice_its_way_out() {
        // Tiles 1 and 2 swapped in the top corner, five steps from the blank's cycle: the blank
        // alone, at home in the bottom corner.
        let (n, tiles, blank) = board(&[&[2, 1, 3, 4], &[5, 6, 7, 8], &[9, 10, 11, 12], &[13, 14, 15, 0]]);
        assert_eq!(reckoned(&mut Rings::new(n), &tiles, blank), 2 * (5 - 1));
    }

    #[test]
    fn the_rings_left_behind_after_a_slide_owe_what_the_whole_board_owes() {
        // Boards walked from the goal a slide at a time, each step's rings left behind found
        // from the last step's alone: their debt must be the one reckoned from the whole board,
        // through every kind of slide, rings cut off the way and rings joining it included.
        let mut slides = [0; 3];
        let (mut cut, mut owed) = (0, 0);
        for (n, seed) in (1..=24).map(|seed| (6 + seed % 5, seed)) {
            let (mut rings, mut whole) = (Rings::new(n), Rings::new(n));
            let mut tiles: Vec<u16> = (1..(n * n) as u16).chain([0]).collect();
            let mut blank = n * n - 1;
            let mut rng = Rng::new(seed as u64);
            let mut left_behind = Vec::new();
            for step in 0..3_000 {
                let from = random_slide(n, blank, &mut rng);
                let home = usize::from(tiles[from]) - 1;
                slides[usize::from(home == from) + 2 * usize::from(home == blank)] += 1;
                tiles.swap(from, blank);
                let mut after = Vec::new();
                rings.after(&tiles, blank, from, &left_behind, &mut after);
                blank = from;
                let expected = reckoned(&mut whole, &tiles, blank);
                assert_eq!(debt(&after), expected, "{n}×{n}, seed {seed}, step {step}");
                cut += usize::from(after.len() > left_behind.len());
                owed += usize::from(expected > 0);
                left_behind = after;
            }
        }
        assert!(slides.iter().all(|&count| count > 1_000), "slides of each kind: {slides:?}");
        assert!(cut > 40 && owed > 1_000, "{cut} slides left a ring behind, {owed} boards owed");
    }
}
