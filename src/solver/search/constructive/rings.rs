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

/// How far, in rows and columns, the debt looks from a ring for the blank's cycle: a ring
/// further out owes as much as one this far.
const REACH: u32 = 30;

/// The cells one beam's debts read, and scratch to reckon them without allocating.
pub(super) struct Rings {
    n: usize,
    /// The cells misplaced at the beam's root or that a blank of the beam has been on: no
    /// other cell can be misplaced.
    cells: Vec<usize>,
    listed: Vec<bool>,
    /// By cell: `stamp` on the blank's cycle, `stamp + 1` on a ring already walked.
    mark: Vec<u32>,
    stamp: u32,
    /// The cells of the rings left behind, each ring a range in `far`.
    ring: Vec<usize>,
    far: Vec<(usize, usize)>,
    /// By cell: `visit` once the current ring's search has reached it.
    seen: Vec<u32>,
    visit: u32,
    queue: Vec<usize>,
}

impl Rings {
    /// The rings of the boards of a beam from `root`, an `n`×`n` board with its blank at
    /// `root_blank` and each tile named by the cell it counts as home, plus one.
    pub(super) fn new(n: usize, root: &[u16], root_blank: usize) -> Rings {
        let cells = n * n;
        let mut rings = Rings {
            n,
            cells: Vec::new(),
            listed: vec![false; cells],
            mark: vec![0; cells],
            stamp: 0,
            ring: Vec::new(),
            far: Vec::new(),
            seen: vec![0; cells],
            visit: 0,
            queue: Vec::new(),
        };
        (0..cells).filter(|&cell| usize::from(root[cell]) != cell + 1).for_each(|cell| rings.list(cell));
        rings.list(root_blank);
        rings
    }

    fn list(&mut self, cell: usize) {
        if !self.listed[cell] {
            self.listed[cell] = true;
            self.cells.push(cell);
        }
    }

    /// The moves the rings `board` has left behind will cost beyond its distance: for each,
    /// twice the way out to it, with the blank at `blank`. Every tile must count a distinct
    /// cell as home, as when no tile is held.
    pub(super) fn debt(&mut self, board: &[u16], blank: usize) -> u32 {
        self.list(blank);
        let last_cell = board.len() - 1;
        let home = |cell: usize| if board[cell] == 0 { last_cell } else { usize::from(board[cell]) - 1 };
        self.stamp += 2;
        let (on_blank, walked) = (self.stamp, self.stamp + 1);
        let mut cell = blank;
        loop {
            self.mark[cell] = on_blank;
            cell = home(cell);
            if cell == blank {
                break;
            }
        }
        self.ring.clear();
        self.far.clear();
        for index in 0..self.cells.len() {
            let start = self.cells[index];
            if board[start] == 0 || home(start) == start || self.mark[start] >= on_blank {
                continue;
            }
            let first = self.ring.len();
            let mut cell = start;
            loop {
                self.mark[cell] = walked;
                self.ring.push(cell);
                cell = home(cell);
                if cell == start {
                    break;
                }
            }
            self.far.push((first, self.ring.len()));
        }
        // A ring next to the blank's cycle is on its way, and so is a ring next to one that is,
        // once the blank has taken that one in.
        let mut joined = true;
        while joined {
            joined = false;
            let mut index = 0;
            while index < self.far.len() {
                let (first, last) = self.far[index];
                if self.ring[first..last]
                    .iter()
                    .any(|&cell| self.around(cell).into_iter().flatten().any(|next| self.mark[next] == on_blank))
                {
                    self.join(first, last, on_blank);
                    self.far.swap_remove(index);
                    joined = true;
                } else {
                    index += 1;
                }
            }
        }
        let mut debt = 0;
        for index in 0..self.far.len() {
            debt += 2 * (self.reach(self.far[index], on_blank) - 1);
        }
        debt
    }

    /// Marks the ring at `self.ring[first..last]` as part of the blank's way.
    fn join(&mut self, first: usize, last: usize, on_blank: u32) {
        for index in first..last {
            self.mark[self.ring[index]] = on_blank;
        }
    }

    /// The cells next to `cell`.
    fn around(&self, cell: usize) -> [Option<usize>; 4] {
        let (n, row, col) = (self.n, cell / self.n, cell % self.n);
        [
            (row > 0).then(|| cell - n),
            (row + 1 < n).then(|| cell + n),
            (col > 0).then(|| cell - 1),
            (col + 1 < n).then(|| cell + 1),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `rows` with each tile named by its home cell plus one, and its blank.
    fn board(rows: &[&[u16]]) -> (usize, Vec<u16>, usize) {
        let tiles: Vec<u16> = rows.concat();
        let blank = tiles.iter().position(|&tile| tile == 0).expect("a blank");
        (rows.len(), tiles, blank)
    }

    #[test]
    fn the_goal_and_a_ring_on_the_blanks_way_owe_nothing() {
        let (n, goal, blank) = board(&[&[1, 2, 3, 4], &[5, 6, 7, 8], &[9, 10, 11, 12], &[13, 14, 15, 0]]);
        assert_eq!(Rings::new(n, &goal, blank).debt(&goal, blank), 0);
        // Tiles 1 and 2 swapped, the one above the blank; the blank's cycle holds tile 6 besides.
        let (n, tiles, blank) = board(&[&[2, 1, 3, 4], &[15, 0, 7, 8], &[9, 10, 11, 12], &[13, 14, 5, 6]]);
        assert_eq!(Rings::new(n, &tiles, blank).debt(&tiles, blank), 0);
    }

    #[test]
    fn a_ring_next_to_one_on_the_blanks_way_owes_nothing() {
        // Cells 11 and 14 swapped, next to the blank at home; cells 6 and 10 swapped, two steps
        // from the blank but next to cell 11.
        let (n, tiles, blank) = board(&[&[1, 2, 3, 4], &[5, 6, 11, 8], &[9, 10, 7, 15], &[13, 14, 12, 0]]);
        assert_eq!(Rings::new(n, &tiles, blank).debt(&tiles, blank), 0);
    }

    #[test]
    fn a_ring_left_behind_owes_twice_its_way_out() {
        // Tiles 1 and 2 swapped in the top corner, five steps from the blank's cycle: the blank
        // alone, at home in the bottom corner.
        let (n, tiles, blank) = board(&[&[2, 1, 3, 4], &[5, 6, 7, 8], &[9, 10, 11, 12], &[13, 14, 15, 0]]);
        assert_eq!(Rings::new(n, &tiles, blank).debt(&tiles, blank), 2 * (5 - 1));
    }
}
