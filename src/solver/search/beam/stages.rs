//! Stage beams: shorter paths for boards larger than 5×5, where FAST places tiles one by one.
//!
//! The board is solved in the same stages as FAST's: the top row and left column of the
//! unsolved region (its "stage tiles"), then the region one smaller, until the region left is
//! the one the finishing search takes. Each stage is a beam search over whole boards: layer by
//! layer every board is expanded (never undoing its last move, never entering a finished
//! cell), and the `width` children of smallest value are kept, duplicates dropped (by a
//! 64-bit hash). The value is [`STAGE_WEIGHT`] times the stage tiles' distance
//! from their targets, plus the other tiles' Manhattan distance (which keeps them tidy for
//! later stages, as FAST's routes do), plus [`BLANK_WEIGHT`] times the blank's distance to the
//! nearest misplaced stage tile. The beam moves several tiles home at once where FAST moves
//! one.
//!
//! Two things a greedy beam cannot do are taken from FAST's method:
//! - **The last two tiles of a line** cannot be placed one after the other without moving the
//!   first again. Their targets are therefore FAST's staging cells: the row's last tile below
//!   the row's end and the one before it in the end cell (the column's likewise, transposed),
//!   and once every target is filled, the blank is routed round and two moves turn each pair
//!   home. A line that starts whole is left as it is.
//! - **A dead end.** A target cell whose tile is wrong and whose only open neighbour is one
//!   cell can never be filled: the blank leaves it by the way it came, putting the same tile
//!   back. Children that make one are dropped. A line's cell counts as filled (closed) only
//!   once the corner and the cells before it are: a tile home out of turn will move again.
//!
//! A beam that brings no stage tile closer for [`STALL_LAYERS`] layers and three more for each
//! row of the board goes back to the closest board it saw, and FAST's placing finishes that
//! stage from there.
//!
//! Boards are told apart by where the stage tiles and the blank are, so that a layer is not
//! filled with one placement and the others' tiles shuffled about.
//!
//! Each layer's boards count as expanded nodes on the [`Meter`], whose limits end the search
//! with their error; a beam that would outgrow the memory budget, or whose path would be no
//! shorter than `max_moves`, ends with `None`.

use std::collections::VecDeque;

use crate::board::{Direction, tile_to_slide};
use crate::solver::error::SearchError;
use crate::solver::meter::Meter;
use crate::solver::search::placing;

/// The weight of a stage tile's distance against another tile's.
pub const STAGE_WEIGHT: u32 = 8;

/// The weight of the blank's distance to the nearest misplaced stage tile.
pub const BLANK_WEIGHT: u32 = 4;

/// Bytes a beam of width 1 holds per layer: its link back to the layer before.
const LINK_BYTES: u64 = 5;

/// No tile: a cell that is no stage tile's target.
const NONE: u16 = 0;

/// Layers a beam goes on without a stage tile closer, besides three for each row of the board.
const STALL_LAYERS: usize = 20;

/// The place of a cell on no line.
const NO_LINE: (u8, u16) = (u8::MAX, u16::MAX);

/// The board and moves after every stage of an `n`×`n` board (`tiles`, row-major, 0 the
/// blank) down to a region of `finish`×`finish` (at least 3), by beams of `width` boards a
/// layer; `None` when a stage's beam empties, outgrows the memory budget, or the path reaches
/// `max_moves`.
pub fn search(
    n: usize,
    tiles: &[u16],
    finish: usize,
    width: usize,
    max_moves: usize,
    meter: &mut Meter<'_>,
) -> Result<Option<State>, SearchError> {
    let mut state = State { n, tiles: tiles.to_vec(), path: Vec::new() };
    let mut locked = vec![false; n * n];
    for corner in 0..n.saturating_sub(finish.max(3)) {
        let stage = Stage::new(n, corner, &state.tiles);
        let beam = Beam::new(&stage, &locked, width);
        let Some(moves) = beam.run(&state.tiles, max_moves.saturating_sub(state.path.len()), meter)? else {
            return Ok(None);
        };
        for direction in moves {
            state.slide(direction)?;
        }
        if stage.is_filled(&state.tiles) {
            stage.turn_pairs(&mut state, &locked)?;
        } else {
            let placed = placing::place_stage(n, &state.tiles, corner)?;
            state.tiles = placed.0;
            state.path.extend(placed.1);
        }
        if state.path.len() >= max_moves {
            return Ok(None);
        }
        for cell in stage.cells() {
            locked[cell] = true;
        }
    }
    Ok(Some(state))
}

fn off_board() -> SearchError {
    SearchError::Internal("a stage's path leaves the board".into())
}

fn blank_of(tiles: &[u16]) -> Result<usize, SearchError> {
    tiles.iter().position(|&tile| tile == 0).ok_or_else(|| SearchError::Internal("a board has no blank".into()))
}

/// The cells next to `cell` on an `n`×`n` board.
fn neighbours(n: usize, cell: usize) -> impl Iterator<Item = usize> {
    Direction::ALL.into_iter().filter_map(move |direction| tile_to_slide(n, cell, direction))
}

/// A board being solved and the moves so far.
pub struct State {
    n: usize,
    /// The tiles, row-major, 0 the blank.
    pub tiles: Vec<u16>,
    /// The moves that led to them.
    pub path: Vec<Direction>,
}

impl State {
    fn slide(&mut self, direction: Direction) -> Result<(), SearchError> {
        let blank = blank_of(&self.tiles)?;
        let from = tile_to_slide(self.n, blank, direction).ok_or_else(off_board)?;
        self.tiles.swap(from, blank);
        self.path.push(direction);
        Ok(())
    }

    /// Moves the blank to `cell` by a shortest route through cells not `blocked`, then on
    /// through `then` (neighbouring cells, in order).
    fn route(&mut self, cell: usize, then: &[usize], blocked: &[bool]) -> Result<(), SearchError> {
        let n = self.n;
        let blank = blank_of(&self.tiles)?;
        let mut before = vec![usize::MAX; n * n];
        before[blank] = blank;
        let mut queue = VecDeque::from([blank]);
        while let Some(at) = queue.pop_front() {
            for next in neighbours(n, at) {
                if !blocked[next] && before[next] == usize::MAX {
                    before[next] = at;
                    queue.push_back(next);
                }
            }
        }
        if before[cell] == usize::MAX {
            return Err(SearchError::Internal("a stage's pair cannot be reached".into()));
        }
        let mut cells = vec![cell];
        while let Some(&at) = cells.last().filter(|&&at| at != blank) {
            cells.push(before[at]);
        }
        cells.reverse();
        cells.extend_from_slice(then);
        for pair in cells.windows(2) {
            let direction = Direction::ALL
                .into_iter()
                .find(|&direction| tile_to_slide(n, pair[0], direction) == Some(pair[1]))
                .ok_or_else(off_board)?;
            self.slide(direction)?;
        }
        Ok(())
    }
}

/// A line's last two cells, whose tiles are staged before they turn home.
struct Pair {
    /// The line's last cell but one, where the blank goes to turn the pair.
    first: usize,
    /// The line's last cell, where the first tile is staged.
    last: usize,
    /// The cell beside the last, off the line, where the last tile is staged.
    beside: usize,
}

/// One stage's cells and where its tiles are wanted.
struct Stage {
    n: usize,
    corner: usize,
    /// The row's pair and the column's, when staged.
    pairs: Vec<Pair>,
    /// Per cell, the stage tile wanted there, or [`NONE`].
    wanted: Vec<u16>,
    /// The row's cells and the column's after the corner, but for a staged pair: each counts
    /// as filled only when the cells before it and the corner are.
    lines: [Vec<usize>; 2],
    /// Per cell, its line and its place there, or [`NO_LINE`].
    line_of: Vec<(u8, u16)>,
}

impl Stage {
    fn new(n: usize, corner: usize, tiles: &[u16]) -> Stage {
        let at = |row: usize, col: usize| row * n + col;
        let mut wanted = vec![NONE; n * n];
        let mut lines = [
            (corner + 1..n).map(|col| at(corner, col)).collect(),
            (corner + 1..n).map(|row| at(row, corner)).collect(),
        ];
        for cell in std::iter::once(at(corner, corner)).chain(lines.iter().flatten().copied()) {
            wanted[cell] = cell as u16 + 1;
        }
        let ends = [
            Pair { first: at(corner, n - 2), last: at(corner, n - 1), beside: at(corner + 1, n - 1) },
            Pair { first: at(n - 2, corner), last: at(n - 1, corner), beside: at(n - 1, corner + 1) },
        ];
        let mut pairs = Vec::new();
        let home = |cell: usize| usize::from(tiles[cell]) == cell + 1;
        let whole = |line: &Vec<usize>| home(at(corner, corner)) && line.iter().all(|&cell| home(cell));
        for (pair, line) in ends.into_iter().zip(&mut lines) {
            // A line already whole stays as it is; any other is filled from its corner, its
            // pair staged, lest a run of empty cells be shut in between full ones.
            if !whole(line) {
                let (first, last) = (wanted[pair.first], wanted[pair.last]);
                wanted[pair.first] = NONE;
                wanted[pair.last] = first;
                wanted[pair.beside] = last;
                line.truncate(line.len() - 2);
                pairs.push(pair);
            }
        }
        let mut line_of = vec![NO_LINE; n * n];
        for (which, line) in lines.iter().enumerate() {
            for (place, &cell) in line.iter().enumerate() {
                line_of[cell] = (which as u8, place as u16);
            }
        }
        Stage { n, corner, pairs, wanted, lines, line_of }
    }

    /// The stage's goal cells: its row and column.
    fn cells(&self) -> impl Iterator<Item = usize> + '_ {
        let (n, corner) = (self.n, self.corner);
        (corner..n).map(move |col| corner * n + col).chain((corner + 1..n).map(move |row| row * n + corner))
    }

    /// Whether every target holds its tile in `tiles`.
    fn is_filled(&self, tiles: &[u16]) -> bool {
        self.wanted.iter().zip(tiles).all(|(&wanted, &tile)| wanted == NONE || tile == wanted)
    }

    /// Turns the staged pairs home, the row's first, once every target is filled.
    fn turn_pairs(&self, state: &mut State, locked: &[bool]) -> Result<(), SearchError> {
        let mut blocked: Vec<bool> =
            locked.iter().zip(&self.wanted).map(|(&locked, &wanted)| locked || wanted != NONE).collect();
        for pair in &self.pairs {
            state.route(pair.first, &[pair.last, pair.beside], &blocked)?;
            blocked[pair.first] = true;
            blocked[pair.beside] = false;
        }
        Ok(())
    }
}

/// One stage's beam.
struct Beam<'a> {
    n: usize,
    /// The finished cells, which the blank never enters.
    locked: &'a [bool],
    /// The stage's targets and lines.
    stage: &'a Stage,
    /// Per cell, its row and column: no division in the inner loop.
    coordinates: Vec<(u16, u16)>,
    /// Per tile (less one), where it is wanted: its target for a stage tile, else its goal.
    target: Vec<usize>,
    /// Per tile (less one), whether it is a stage tile.
    in_stage: Vec<bool>,
    width: usize,
}

/// A board of a layer, whose tiles lie in the layer's flat array at its index.
#[derive(Clone, Copy)]
struct Node {
    /// The stage tiles' distance from their targets.
    stage: u32,
    /// The other tiles' Manhattan distance.
    others: u32,
    hash: u64,
    blank: u32,
    parent: u32,
    direction: Direction,
}

/// A child not yet made: its value and hash in `key`, its parent and move.
#[derive(Clone, Copy)]
struct Child {
    key: u64,
    hash: u64,
    stage: u32,
    others: u32,
    parent: u32,
    direction: Direction,
}

impl<'a> Beam<'a> {
    fn new(stage: &'a Stage, locked: &'a [bool], width: usize) -> Beam<'a> {
        let cells = stage.n * stage.n;
        let mut target: Vec<usize> = (0..cells).collect();
        let mut in_stage = vec![false; cells];
        for (cell, &tile) in stage.wanted.iter().enumerate() {
            if tile != NONE {
                target[usize::from(tile) - 1] = cell;
                in_stage[usize::from(tile) - 1] = true;
            }
        }
        let coordinates = (0..cells).map(|cell| ((cell / stage.n) as u16, (cell % stage.n) as u16)).collect();
        Beam { n: stage.n, locked, stage, coordinates, target, in_stage, width }
    }

    /// The moves that bring every stage tile to its target from `tiles`, fewer than
    /// `max_moves`.
    fn run(
        &self,
        tiles: &[u16],
        max_moves: usize,
        meter: &mut Meter<'_>,
    ) -> Result<Option<Vec<Direction>>, SearchError> {
        let cells = self.n * self.n;
        let blank = blank_of(tiles)?;
        let (mut stage, mut others, mut hash) = (0, 0, 0);
        for (cell, &tile) in tiles.iter().enumerate() {
            if tile == 0 {
                continue;
            }
            let distance = self.distance(tile, cell);
            if self.is_stage(tile) {
                stage += distance;
            } else {
                others += distance;
            }
            if self.is_stage(tile) {
                hash ^= zobrist(tile, cell);
            }
        }
        hash ^= zobrist(0, blank);
        if stage == 0 {
            return Ok(Some(Vec::new()));
        }
        let per_width = (2 * cells * 2) as u64 + 3 * size_of::<Child>() as u64 + size_of::<Node>() as u64;
        // The first layer's move is never compared with its parent's: any direction will do.
        let root = Node { stage, others, hash, blank: blank as u32, parent: u32::MAX, direction: Direction::Up };
        let mut layer = vec![root];
        let mut boards = tiles.to_vec();
        let mut links: Vec<Vec<(u32, Direction)>> = Vec::new();
        let mut misplaced = Vec::new();
        let mut children = Vec::new();
        // The board of fewest stage tiles misplaced so far, by (stage distance, key): its
        // layer and index there.
        let mut closest = (stage, u64::MAX, 0, 0);
        for depth in 0..max_moves {
            let held = per_width * self.width as u64 + LINK_BYTES * self.width as u64 * depth as u64;
            if held > meter.max_memory_bytes() {
                return Ok(None);
            }
            children.clear();
            for (index, node) in layer.iter().enumerate() {
                let board = &boards[index * cells..(index + 1) * cells];
                self.expand(board, node, index as u32, depth == 0, &mut misplaced, &mut children);
            }
            meter.absorb(layer.len() as u64, children.len() as u64)?;
            meter.checkpoint(0, layer.len() as u64)?;
            if let Some(done) = children.iter().filter(|child| child.stage == 0).min_by_key(|child| child.key) {
                let mut path = trace(&links, done.parent);
                path.push(done.direction);
                return Ok(Some(path));
            }
            children.sort_unstable_by_key(|child| (child.hash, child.key));
            children.dedup_by_key(|child| child.hash);
            if children.len() > self.width {
                children.select_nth_unstable_by_key(self.width, |child| child.key);
                children.truncate(self.width);
            }
            let Some((index, child)) = children.iter().enumerate().min_by_key(|(_, child)| (child.stage, child.key))
            else {
                return Ok(None);
            };
            if (child.stage, child.key) < (closest.0, closest.1) {
                closest = (child.stage, child.key, depth + 1, index as u32);
            } else if depth + 1 - closest.2 >= stall_layers(self.n) {
                return Ok(Some(trace(&links[..closest.2], closest.3)));
            }
            let mut next_boards = Vec::with_capacity(children.len() * cells);
            let mut next = Vec::with_capacity(children.len());
            for child in &children {
                let parent = layer[child.parent as usize];
                let start = next_boards.len();
                let parent_cells = child.parent as usize * cells..(child.parent as usize + 1) * cells;
                next_boards.extend_from_slice(&boards[parent_cells]);
                let to = parent.blank as usize;
                let from = tile_to_slide(self.n, to, child.direction).ok_or_else(off_board)?;
                next_boards.swap(start + from, start + to);
                next.push(Node {
                    stage: child.stage,
                    others: child.others,
                    hash: child.hash,
                    blank: from as u32,
                    parent: child.parent,
                    direction: child.direction,
                });
            }
            links.push(next.iter().map(|node| (node.parent, node.direction)).collect());
            layer = next;
            boards = next_boards;
        }
        Ok(None)
    }

    /// Pushes `node`'s children (its tiles are `board`) onto `children`, but for those that
    /// make a dead end; `misplaced` is scratch.
    fn expand(
        &self,
        board: &[u16],
        node: &Node,
        index: u32,
        root: bool,
        misplaced: &mut Vec<usize>,
        children: &mut Vec<Child>,
    ) {
        let (n, corner) = (self.n, self.stage.corner);
        misplaced.clear();
        misplaced.extend((corner..n).flat_map(|row| row * n + corner..(row + 1) * n).filter(|&at| {
            let tile = usize::from(board[at]);
            tile != 0 && self.in_stage[tile - 1] && self.target[tile - 1] != at
        }));
        let filled = self
            .stage
            .lines
            .each_ref()
            .map(|line| line.iter().take_while(|&&cell| board[cell] == self.stage.wanted[cell]).count());
        let to = node.blank as usize;
        for direction in Direction::ALL {
            if !root && direction == node.direction.opposite() {
                continue;
            }
            let Some(from) = tile_to_slide(self.n, to, direction) else { continue };
            if self.locked[from] {
                continue;
            }
            let tile = board[from];
            if self.dead_end(board, filled, tile, from, to) {
                continue;
            }
            let change = i64::from(self.distance(tile, to)) - i64::from(self.distance(tile, from));
            let (mut stage, mut others) = (node.stage, node.others);
            if self.is_stage(tile) {
                stage = (i64::from(stage) + change) as u32;
            } else {
                others = (i64::from(others) + change) as u32;
            }
            // The moved tile now stands where the blank was, misplaced unless that is its target.
            let moved = (self.is_stage(tile) && self.distance(tile, to) != 0).then_some(to);
            let nearest = misplaced
                .iter()
                .copied()
                .filter(|&at| at != from)
                .chain(moved)
                .map(|at| self.cell_distance(at, from))
                .min()
                .unwrap_or(0);
            let value = STAGE_WEIGHT * stage + others + BLANK_WEIGHT * nearest;
            let mut hash = node.hash ^ zobrist(0, from) ^ zobrist(0, to);
            if self.is_stage(tile) {
                hash ^= zobrist(tile, from) ^ zobrist(tile, to);
            }
            children.push(Child {
                key: u64::from(value) << 32 | hash >> 32,
                hash,
                stage,
                others,
                parent: index,
                direction,
            });
        }
    }

    /// Whether sliding `tile` from `from` into the blank at `to` leaves a target cell near
    /// them unfilled with one open neighbour at most; `lines` are how many cells of each line
    /// of `board` hold their tiles from the corner on.
    fn dead_end(&self, board: &[u16], mut lines: [usize; 2], tile: u16, from: usize, to: usize) -> bool {
        let tile_at = |cell: usize| match cell {
            _ if cell == from => 0,
            _ if cell == to => tile,
            _ => board[cell],
        };
        let holds = |cell: usize| self.stage.wanted[cell] != NONE && tile_at(cell) == self.stage.wanted[cell];
        for (which, line) in self.stage.lines.iter().enumerate() {
            let (line_from, place_from) = self.stage.line_of[from];
            if usize::from(line_from) == which && usize::from(place_from) < lines[which] {
                lines[which] = usize::from(place_from);
            }
            let (line_to, place_to) = self.stage.line_of[to];
            if usize::from(line_to) == which && usize::from(place_to) == lines[which] {
                lines[which] += line[lines[which]..].iter().take_while(|&&cell| holds(cell)).count();
            }
        }
        let corner = self.stage.corner * (self.n + 1);
        // A cell of a line counts as filled when it, every cell before it and the corner hold
        // their tiles: a tile home out of turn will have to move again.
        let filled = |cell: usize| match self.stage.line_of[cell] {
            NO_LINE => holds(cell),
            (which, place) => holds(corner) && usize::from(place) < lines[usize::from(which)],
        };
        std::iter::once(to).chain(neighbours(self.n, to)).chain(neighbours(self.n, from)).any(|cell| {
            self.stage.wanted[cell] != NONE
                && cell != from
                && !filled(cell)
                && neighbours(self.n, cell).filter(|&next| !self.locked[next] && !filled(next)).count() <= 1
        })
    }

    fn is_stage(&self, tile: u16) -> bool {
        self.in_stage[usize::from(tile) - 1]
    }

    /// The distance of `tile` at `cell` from its target.
    fn distance(&self, tile: u16, cell: usize) -> u32 {
        self.cell_distance(self.target[usize::from(tile) - 1], cell)
    }

    /// The Manhattan distance between two cells.
    fn cell_distance(&self, a: usize, b: usize) -> u32 {
        let ((a_row, a_col), (b_row, b_col)) = (self.coordinates[a], self.coordinates[b]);
        u32::from(a_row.abs_diff(b_row) + a_col.abs_diff(b_col))
    }
}

/// The moves to the board at `index` of the layer after `links`' last, from the root.
fn trace(links: &[Vec<(u32, Direction)>], mut index: u32) -> Vec<Direction> {
    let mut path = Vec::with_capacity(links.len());
    for links in links.iter().rev() {
        let (parent, direction) = links[index as usize];
        path.push(direction);
        index = parent;
    }
    path.reverse();
    path
}

/// How many layers a beam on an `n`×`n` board goes on without bringing a stage tile closer
/// before its stage is left to FAST's placing.
fn stall_layers(n: usize) -> usize {
    STALL_LAYERS + 3 * n
}

/// The hash of `tile` standing at `cell`: a board's hash is the exclusive or over its tiles.
fn zobrist(tile: u16, cell: usize) -> u64 {
    let mut x = (u64::from(tile) << 32 | cell as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::random::{Rng, random_board};
    use crate::solver::method::{Method, Plan};
    use crate::solver::options::{Algorithm, Heuristic, Options};
    use crate::solver::progress::{NoProgress, Stop};

    const FINISH: usize = 5;

    fn staged(board: &Board, width: usize, max_moves: usize) -> Option<State> {
        let plan = Plan { algorithm: Algorithm::IdaStar, heuristic: Heuristic::Manhattan, method: Method::Anytime };
        let (mut progress, stop) = (NoProgress, Stop::new());
        let n = board.dimension();
        let mut meter = Meter::new(&Options::default(), plan, n, &mut progress, &stop);
        search(n, board.tiles(), FINISH, width, max_moves, &mut meter).expect("a search")
    }

    fn board(n: usize, seed: u64) -> Board {
        random_board(n, &mut Rng::new(seed)).expect("a board")
    }

    /// FAST's moves for the same stages.
    fn fast_stages(board: &Board) -> usize {
        let n = board.dimension();
        let (mut tiles, mut moves) = (board.tiles().to_vec(), 0);
        for corner in 0..n - FINISH {
            let (placed, path) = placing::place_stage(n, &tiles, corner).expect("FAST places a stage");
            tiles = placed;
            moves += path.len();
        }
        moves
    }

    #[test]
    fn every_stage_ends_placed_and_the_path_leads_there() {
        for (n, seed) in [(7, 1), (8, 2), (9, 3)] {
            let board = board(n, seed);
            // A beam one board wide stalls at once and leaves most stages to FAST's placing.
            for width in [1, 64] {
                let state = staged(&board, width, usize::MAX).expect("the stages are placed");
                let mut replayed = board.clone();
                for &direction in &state.path {
                    replayed = replayed.slide(direction).expect("a legal move").0;
                }
                assert_eq!(replayed.tiles(), &state.tiles[..], "{n}×{n}, width {width}");
                for (cell, &tile) in state.tiles.iter().enumerate() {
                    if cell / n < n - FINISH || cell % n < n - FINISH {
                        assert_eq!(usize::from(tile), cell + 1, "{n}×{n}, width {width}, cell {cell}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_wide_beam_places_the_stages_in_fewer_moves_than_fast() {
        for seed in 1..=3 {
            let board = board(8, seed);
            let beam = staged(&board, 256, usize::MAX).expect("the stages are placed").path.len();
            let fast = fast_stages(&board);
            assert!(beam < fast, "seed {seed}: the beam took {beam} moves, FAST {fast}");
        }
    }

    #[test]
    fn a_path_that_would_reach_max_moves_is_none() {
        assert!(staged(&board(8, 4), 16, 10).is_none());
    }

    #[test]
    fn a_line_already_home_is_not_staged_and_any_other_is() {
        let n = 8;
        let goal = Board::goal(n).expect("a goal");
        assert!(Stage::new(n, 0, goal.tiles()).pairs.is_empty());
        let stage = Stage::new(n, 0, board(n, 5).tiles());
        assert_eq!(stage.pairs.len(), 2);
        // The row's last two tiles (7 and 8) are staged in its end cell and below it.
        assert_eq!((stage.wanted[6], stage.wanted[7], stage.wanted[15]), (NONE, 7, 8));
        // The column's last two (49 and 57) in its end cell and beside it.
        assert_eq!((stage.wanted[48], stage.wanted[56], stage.wanted[57]), (NONE, 49, 57));
    }

    #[test]
    fn a_child_that_shuts_a_wrong_tile_in_a_dead_end_is_dropped() {
        let n = 8;
        // The goal, but for the end of the top row: 16 in the end cell, the blank below it and
        // 8 below the blank. Sliding 8 up stages it, shutting 16 in where 7 must go.
        let mut tiles: Vec<u16> = (1..=(n * n) as u16).collect();
        tiles[n * n - 1] = 24;
        (tiles[7], tiles[15], tiles[23]) = (16, 0, 8);
        let stage = Stage::new(n, 0, &tiles);
        let locked = vec![false; n * n];
        let beam = Beam::new(&stage, &locked, 4);
        // Sums above the board's own, so that a child's fall in them stays above zero: only the
        // moves are asserted.
        let root = Node { stage: 100, others: 100, hash: 0, blank: 15, parent: 0, direction: Direction::Up };
        let mut children = Vec::new();
        beam.expand(&tiles, &root, 0, true, &mut Vec::new(), &mut children);
        let moved: Vec<usize> = children.iter().filter_map(|child| tile_to_slide(n, 15, child.direction)).collect();
        assert_eq!(moved.len(), 2, "{moved:?}");
        assert!(!moved.contains(&23), "{moved:?}");
    }
}
