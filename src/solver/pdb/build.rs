//! Building pattern-database tables by breadth-first search backwards from the goal, in the
//! abstract space of one pattern: its k tiles are distinct, every other tile is not, and only
//! the pattern's own slides count.
//!
//! A state is a placement of the pattern's tiles plus the blank's cell. Sliding an indistinct
//! tile is free, so the blank roams its whole region (the free cells connected to it) at no
//! cost, and the states of one region share their distance. The search keeps one word per
//! placement, indexed by its dense rank, with two bits per free cell (the cells the pattern
//! leaves free, in ascending order): unseen, queued at this depth, queued at the next, or
//! expanded. A region is always marked whole, the moment it is reached, so one cell tells
//! whether its region is new. Each depth scans the words for cells queued at that depth, marks
//! them expanded, and slides every pattern tile next to one of them into it (one move): the
//! child's blank stands where the tile was, and its region is marked for the next depth if it is
//! unseen. Words are as narrow as the free cells allow: 16 bits for the 8-tile 4×4 pattern (eight
//! free cells), 32 for the other 4×4 patterns, 64 on 5×5 (19 free cells or more).
//!
//! Every region is expanded at the depth it was reached, which is its distance. On 4×4, a
//! placement expanded with no region expanded before is at its least distance over the blank's
//! cells, the exact additive-database value (Korf & Felner 2002), and its entry is written then,
//! straight into the finished table, in rank order as the scan goes, in four bits (see
//! [`entry`]). On 5×5 each region's distance is written when it is expanded: the
//! main region's at the direct index, a pocket's in the pocket part, with a flag on the main
//! entry when a pocket comes first (see [`regions`](super::regions)). The search starts from the
//! pattern's tiles home with the blank's region around its goal corner (which is the blank
//! anywhere when the pattern leaves the free cells connected; see `symmetry`).
//!
//! The depths run one after the other; within a depth, the cores take stretches of words from a
//! shared counter, skipping those where nothing was queued (most of them, early and late in a
//! build). The words of the placements that share all but the last tile's cell are consecutive,
//! so a scan walks those prefixes in rank order, each from the one before, and reads a
//! placement's cells off its prefix without unranking it. A child's rank is stepped from its
//! parent's: a slide along a row moves one digit by one, a slide along a column also moves the
//! digits of the tiles it passes. Children are then visited in a pipeline: each child's word is
//! prefetched when the child is made and read [`IN_FLIGHT`] children later, so that many cache
//! misses are in flight at once instead of one. On CPUs with BMI2 the scan is compiled for it
//! (hardware `popcnt`, and `pdep`/`pext` to move bits between a word's fields and the board's
//! cells). The large arrays ask for huge pages (see `huge_pages`).
//!
//! Memory while building, the words plus the finished table (and the tables finished before):
//!
//! | table | placements | word | table | peak |
//! |---|---|---|---|---|
//! | 4×4, 6 tiles | 5.8 M | 4 bytes | 2.9 MB | 26 MB |
//! | 4×4, 7 tiles | 57.7 M | 4 bytes | 28.8 MB | 260 MB |
//! | 4×4, 8 tiles | 519 M | 2 bytes | 259 MB | 1.30 GB |
//! | 5×5, 6 tiles | 127.5 M | 8 bytes | 176 MB | 1.20 GB, 1.37 GB for the second, 1.72 GB for the catalogue's fourth |
//!
//! Build times and measured peaks, and what the layout replaced: `docs/performance.md`,
//! "Building the tables (from `solver::pdb::build`)". Tests use the smaller partitions.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU16, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::thread;

use super::cells::{flood, grow};
use super::entry;
use super::error::PdbError;
use super::huge_pages;
use super::index::{direct25, rank16, rank25, unrank};
use super::partition::{Partition, placements, table_len};
use super::regions::{FLAG, Regions, ordering};
use crate::solver::prefetch::prefetch;

/// Prefixes one worker scans before moving on to its next stretch.
const STRETCH: usize = 1 << 12;

/// The two-bit states of a free cell, as the search marks them.
const UNSEEN: u64 = 0;
const EXPANDED: u64 = 3;

/// The low bit of every two-bit field of a word.
const LOW_BITS: u64 = 0x5555_5555_5555_5555;

/// Builds every stored table of `partition` (in [`Partition::stored`]'s order), one after the
/// other, each on every core.
pub fn build(partition: &Partition) -> Result<Vec<Vec<u8>>, PdbError> {
    partition
        .stored()
        .map(|pattern| match (partition.dimension(), 16usize.saturating_sub(pattern.len())) {
            // Two bits per free cell: eight fit 16 bits, sixteen 32.
            (4, ..=8) => build_table::<Four, AtomicU16>(pattern),
            (4, _) => build_table::<Four, AtomicU32>(pattern),
            _ => build_table::<Five, AtomicU64>(pattern),
        })
        .collect()
}

/// One placement's word, shared between the build's workers: two bits per free cell.
trait Word: Sync + Send {
    fn unseen() -> Self;
    fn get(&self) -> u64;
    /// Adds `fields`.
    fn add(&self, fields: u64);
}

macro_rules! word {
    ($atomic:ty, $int:ty) => {
        impl Word for $atomic {
            fn unseen() -> Self {
                <$atomic>::new(0)
            }

            #[inline]
            fn get(&self) -> u64 {
                u64::from(self.load(Ordering::Relaxed))
            }

            #[inline]
            fn add(&self, fields: u64) {
                self.fetch_or(fields as $int, Ordering::Relaxed);
            }
        }
    };
}

word!(AtomicU16, u16);
word!(AtomicU32, u32);
word!(AtomicU64, u64);

/// A board size the build runs on: its side, the dense rank of the build's words, and how an
/// entry is written into the finished table.
trait Grid: Sync {
    const DIMENSION: usize;
    const CELLS: usize = Self::DIMENSION * Self::DIMENSION;
    fn rank(cells: impl IntoIterator<Item = usize>) -> usize;
    /// Writes the entries of the placement `cells` (of dense rank `rank`) of the pattern whose
    /// goal cells are `goals` as the regions of `expanded` are expanded at `depth`.
    fn record(table: &[AtomicU8], rank: usize, cells: &[u8], goals: &[u8], depth: u8, expanded: Expanded);
}

/// The regions of a placement expanded at one depth, and those before.
#[derive(Clone, Copy)]
struct Expanded {
    /// No region of the placement was expanded before: this depth is its least distance.
    first: bool,
    /// The cells of the regions expanded at this depth.
    now: u32,
    /// The cells of the regions expanded at earlier depths.
    before: u32,
}

/// The 4×4 board: tables of four-bit entries indexed by dense rank.
struct Four;

impl Grid for Four {
    const DIMENSION: usize = 4;

    #[inline]
    fn rank(cells: impl IntoIterator<Item = usize>) -> usize {
        rank16(cells)
    }

    #[inline]
    fn record(table: &[AtomicU8], rank: usize, cells: &[u8], goals: &[u8], depth: u8, expanded: Expanded) {
        if !expanded.first {
            return;
        }
        let manhattan = manhattan::<Self>(cells, goals);
        let (byte, shift) = entry::position(rank);
        table[byte].fetch_or(entry::encode(depth, manhattan, entry::MAX_ENTRY) << shift, Ordering::Relaxed);
    }
}

/// The pattern tiles' Manhattan distance, when they stand on `cells` and their goals are `goals`.
#[inline]
fn manhattan<G: Grid>(cells: &[u8], goals: &[u8]) -> u8 {
    cells
        .iter()
        .zip(goals)
        .map(|(&cell, &goal)| entry::manhattan(G::DIMENSION, usize::from(goal), usize::from(cell)))
        .sum()
}

/// The 5×5 board: zero-aware tables, the main region's entry at the direct index and the
/// pockets' after them (see [`regions`](super::regions)).
struct Five;

impl Grid for Five {
    const DIMENSION: usize = 5;

    #[inline]
    fn rank(cells: impl IntoIterator<Item = usize>) -> usize {
        rank25(cells)
    }

    /// The main region's entry (its half excess over the placement's Manhattan distance) when
    /// it is expanded; a pocket's when it is, and the flag on the main entry when a pocket is
    /// expanded before the main region (it is nearer the goal).
    #[inline]
    fn record(table: &[AtomicU8], _: usize, cells: &[u8], goals: &[u8], depth: u8, expanded: Expanded) {
        let mut placement = [0usize; 8];
        for (slot, &cell) in placement.iter_mut().zip(cells) {
            *slot = usize::from(cell);
        }
        let placement = &placement[..cells.len()];
        let regions = Regions::of(cells.len());
        let (set, main) = regions.main_of(placement);
        let manhattan = manhattan::<Self>(cells, goals);
        let (byte, shift) = entry::position(direct25(placement.iter().copied()));
        let main_entry = &table[byte];
        if expanded.now & main != 0 {
            main_entry.fetch_or(entry::encode(depth, manhattan, entry::MAX_FIVE_ENTRY) << shift, Ordering::Relaxed);
        }
        for (pocket, first) in regions.pockets_of(set) {
            if expanded.now & pocket != 0 {
                let excess = entry::encode(depth, manhattan, u8::MAX);
                table[regions.main_len() + first + ordering(placement)].store(excess, Ordering::Relaxed);
                if (expanded.now | expanded.before) & main == 0 {
                    main_entry.fetch_or(FLAG << shift, Ordering::Relaxed);
                }
            }
        }
    }
}

/// Every cell of a board of `cells` cells.
const fn all_cells(cells: usize) -> u32 {
    u32::MAX >> (32 - cells)
}

/// The fields of a word with `code` at the cells of `region`, whose free cells are `free`.
#[inline]
fn fields_of(region: u32, free: u32, code: u64) -> u64 {
    let (mut fields, mut rest, mut shift) = (0, free, 0);
    while rest != 0 {
        let cell = rest & rest.wrapping_neg();
        if region & cell != 0 {
            fields |= code << shift;
        }
        rest ^= cell;
        shift += 2;
    }
    fields
}

/// The cells whose field's low bit is set in `low_bits`, for a word whose free cells are `free`.
#[inline]
fn cells_of(low_bits: u64, free: u32) -> u32 {
    let (mut cells, mut rest, mut shift) = (0, free, 0);
    while rest != 0 {
        let cell = rest & rest.wrapping_neg();
        if low_bits >> shift & 1 != 0 {
            cells |= cell;
        }
        rest ^= cell;
        shift += 2;
    }
    cells
}

/// Moving bits between a word's fields and a board's cells: [`fields_of`] and [`cells_of`] by
/// default, or one instruction each where the CPU has BMI2's `pdep` and `pext`.
trait Bits: Copy {
    fn fields_of(self, region: u32, free: u32, code: u64) -> u64;
    fn cells_of(self, low_bits: u64, free: u32) -> u32;
}

/// Bit moves for any CPU.
#[derive(Clone, Copy)]
struct Portable;

impl Bits for Portable {
    #[inline(always)]
    fn fields_of(self, region: u32, free: u32, code: u64) -> u64 {
        fields_of(region, free, code)
    }

    #[inline(always)]
    fn cells_of(self, low_bits: u64, free: u32) -> u32 {
        cells_of(low_bits, free)
    }
}

/// Bit moves by BMI2, for code compiled with that feature on a CPU that has it.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Bmi2;

#[cfg(target_arch = "x86_64")]
impl Bits for Bmi2 {
    #[inline(always)]
    fn fields_of(self, region: u32, free: u32, code: u64) -> u64 {
        use std::arch::x86_64::{_pdep_u64, _pext_u32};
        // SAFETY: `Bmi2` is only used by `expand_with_bit_instructions`, which runs only on a
        // CPU with BMI2.
        unsafe { _pdep_u64(u64::from(_pext_u32(region, free)), LOW_BITS) * code }
    }

    #[inline(always)]
    fn cells_of(self, low_bits: u64, free: u32) -> u32 {
        use std::arch::x86_64::{_pdep_u32, _pext_u64};
        // SAFETY: as for `fields_of`.
        unsafe { _pdep_u32(_pext_u64(low_bits, LOW_BITS) as u32, free) }
    }
}

/// The low bit of every field of `word` that holds `code` (0 to 3).
#[inline]
fn fields_equal(word: u64, code: u64) -> u64 {
    let apart = word ^ (code * LOW_BITS);
    !(apart | apart >> 1) & LOW_BITS
}

/// The codes of the cells queued at `depth` and at the next depth: 1 and 2, alternately.
fn codes(depth: u8) -> (u64, u64) {
    if depth.is_multiple_of(2) { (1, 2) } else { (2, 1) }
}

/// The first cells of a placement, walked in rank order: every placement of the pattern's tiles
/// is such a prefix and one of the cells it leaves free for the last tile.
struct Prefix {
    cells: [u8; 32],
    used: u32,
    len: usize,
    all: u32,
}

impl Prefix {
    /// The prefix of `len` cells out of `cells` with dense rank `rank`.
    fn at(rank: usize, len: usize, cells: usize) -> Prefix {
        let placement = unrank(rank, len, cells);
        let used = placement[..len].iter().fold(0u32, |used, &cell| used | 1 << cell);
        Prefix { cells: placement, used, len, all: all_cells(cells) }
    }

    /// Moves on to the prefix of the next rank (its lexicographic successor).
    #[inline]
    fn advance(&mut self) {
        for slot in (0..self.len).rev() {
            let cell = self.cells[slot];
            self.used &= !(1 << cell);
            let later = !self.used & self.all & !((2u32 << cell) - 1);
            if later != 0 {
                self.take(slot, later);
                for rest in slot + 1..self.len {
                    self.take(rest, !self.used & self.all);
                }
                return;
            }
        }
    }

    /// Puts the lowest cell of `choices` at `slot`.
    #[inline]
    fn take(&mut self, slot: usize, choices: u32) {
        let cell = choices.trailing_zeros();
        self.cells[slot] = cell as u8;
        self.used |= 1 << cell;
    }
}

/// The search for one pattern on the board `G` with words `W`: each placement's word, the
/// finished table the entries go into, and which stretches have cells queued.
struct Search<'a, G, W> {
    goals: &'a [u8],
    /// What one step of each tile's dense-rank digit is worth: the product of the radices after
    /// it.
    weights: [usize; 32],
    words: Vec<W>,
    table: Vec<AtomicU8>,
    /// For each stretch of [`STRETCH`] prefixes, whether it holds cells queued at an even depth
    /// and at an odd one: a scan skips the others (most stretches, early and late in a build).
    queued: [Vec<AtomicBool>; 2],
    grid: PhantomData<G>,
}

/// The table of one pattern on the board `G`: the fewest pattern moves home for every placement
/// of its tiles, laid out for lookups.
fn build_table<G: Grid, W: Word>(pattern: &[u8]) -> Result<Vec<u8>, PdbError> {
    let goals: Vec<u8> = pattern.iter().map(|&tile| tile - 1).collect();
    let k = goals.len();
    let size = placements(G::CELLS, k);
    let stretches = (size / (G::CELLS + 1 - k)).div_ceil(STRETCH);
    let flags = || (0..stretches).map(|_| AtomicBool::new(false)).collect();
    let mut weights = [0; 32];
    for tile in (0..k).rev() {
        weights[tile] = if tile + 1 == k { 1 } else { weights[tile + 1] * (G::CELLS - tile - 1) };
    }
    let search = Search::<G, W> {
        goals: &goals,
        weights,
        words: huge_pages::filled(size, W::unseen),
        table: huge_pages::filled(table_len(G::DIMENSION, k), || AtomicU8::new(0)),
        queued: [flags(), flags()],
        grid: PhantomData,
    };
    // The goal's region is the first queued; its entry, zero, is written when it is expanded.
    let free = goals.iter().fold(all_cells(G::CELLS), |free, &goal| free & !(1 << goal));
    let start = flood(G::DIMENSION, 1 << (G::CELLS - 1), free);
    let goal = G::rank(goals.iter().map(|&goal| usize::from(goal)));
    search.words[goal].add(fields_of(start, free, codes(0).0));
    search.queue(goal, 0);
    let workers = thread::available_parallelism().map_or(1, |n| n.get());
    for depth in 0..u8::MAX {
        let search = &search;
        let next_stretch = &AtomicUsize::new(0);
        let reached = thread::scope(|scope| {
            let handles: Vec<_> =
                (0..workers).map(|_| scope.spawn(move || search.expand_on_this_cpu(depth, next_stretch))).collect();
            handles.into_iter().map(|handle| handle.join().map_err(|_| PdbError::BuildFailed)).sum::<Result<usize, _>>()
        })?;
        if reached == 0 {
            break;
        }
    }
    Ok(search.table.into_iter().map(AtomicU8::into_inner).collect())
}

/// A placement reached by one slide, waiting for its word to arrive from memory: its dense rank,
/// its free cells and the cell its blank stands on.
#[derive(Clone, Copy, Default)]
struct Child {
    rank: usize,
    free: u32,
    blank: u32,
}

/// How many children a worker has asked memory for before it reads the first of them: enough to
/// keep several of the words' cache misses in flight at once.
const IN_FLIGHT: usize = 16;

/// The children a worker has generated and prefetched but not yet visited, oldest first.
struct Pending {
    children: [Child; IN_FLIGHT],
    len: usize,
    oldest: usize,
}

impl Pending {
    fn new() -> Pending {
        Pending { children: [Child::default(); IN_FLIGHT], len: 0, oldest: 0 }
    }

    /// Adds `child`; when every slot is taken, hands back the oldest child in exchange.
    #[inline]
    fn push(&mut self, child: Child) -> Option<Child> {
        if self.len < IN_FLIGHT {
            self.children[(self.oldest + self.len) % IN_FLIGHT] = child;
            self.len += 1;
            return None;
        }
        let oldest = std::mem::replace(&mut self.children[self.oldest], child);
        self.oldest = (self.oldest + 1) % IN_FLIGHT;
        Some(oldest)
    }

    /// Takes the oldest child, if any.
    fn pop(&mut self) -> Option<Child> {
        (self.len > 0).then(|| {
            let oldest = self.children[self.oldest];
            self.oldest = (self.oldest + 1) % IN_FLIGHT;
            self.len -= 1;
            oldest
        })
    }
}

impl<G: Grid, W: Word> Search<'_, G, W> {
    /// The last tile's choices once the others are placed: the words of one prefix.
    fn choices(&self) -> usize {
        G::CELLS + 1 - self.goals.len()
    }

    /// Notes that the placement of dense rank `rank` has cells queued at `depth`.
    #[inline]
    fn queue(&self, rank: usize, depth: u8) {
        let flag = &self.queued[usize::from(depth % 2)][rank / self.choices() / STRETCH];
        // A plain load first: the flag is mostly set already, and a store would bounce its cache
        // line between the cores.
        if !flag.load(Ordering::Relaxed) {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// [`Search::expand`], compiled for the bit-manipulation instructions of this CPU when it
    /// has them: the build counts and scans bits in every step, and without `popcnt` each count
    /// is a dozen instructions.
    fn expand_on_this_cpu(&self, depth: u8, next_stretch: &AtomicUsize) -> usize {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
        {
            // SAFETY: the CPU has every feature the function is compiled for.
            return unsafe { self.expand_with_bit_instructions(depth, next_stretch) };
        }
        self.expand(depth, next_stretch, Portable)
    }

    /// [`Search::expand`] for CPUs with `popcnt`, BMI1 and BMI2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    fn expand_with_bit_instructions(&self, depth: u8, next_stretch: &AtomicUsize) -> usize {
        self.expand(depth, next_stretch, Bmi2)
    }

    /// Expands the placements of the stretches (of [`STRETCH`] prefixes each) that have cells
    /// queued at `depth`, taking the stretches one at a time from `next_stretch`, which the
    /// workers share; queues their children's regions for `depth + 1` and returns how many it
    /// queued. Workers share the words through atomic `or`s: two that queue one region at once
    /// mark the same bits.
    #[inline(always)]
    fn expand<B: Bits>(&self, depth: u8, next_stretch: &AtomicUsize, bits: B) -> usize {
        let k = self.goals.len();
        let choices = self.choices();
        let prefixes = self.words.len() / choices;
        let mut pending = Pending::new();
        let mut queued = 0;
        loop {
            let start = next_stretch.fetch_add(1, Ordering::Relaxed) * STRETCH;
            if start >= prefixes {
                break;
            }
            // Only this worker scans the stretch, and no one queues at `depth` any more.
            let flag = &self.queued[usize::from(depth % 2)][start / STRETCH];
            if !flag.swap(false, Ordering::Relaxed) {
                continue;
            }
            let mut prefix = Prefix::at(start, k - 1, G::CELLS);
            for index in start..(start + STRETCH).min(prefixes) {
                let words = &self.words[index * choices..(index + 1) * choices];
                let (current, _) = codes(depth);
                if words.iter().any(|word| fields_equal(word.get(), current) != 0) {
                    queued += self.expand_prefix(&prefix, index * choices, depth, &mut pending, bits);
                }
                prefix.advance();
            }
        }
        while let Some(child) = pending.pop() {
            queued += self.visit(child, depth, bits);
        }
        queued
    }

    /// Expands the placements of `prefix` (the first of dense rank `first`), the last tile on
    /// each free cell in turn, writing the entry of those expanded for the first time; returns
    /// how many regions it queued.
    #[inline(always)]
    fn expand_prefix<B: Bits>(
        &self,
        prefix: &Prefix,
        first: usize,
        depth: u8,
        pending: &mut Pending,
        bits: B,
    ) -> usize {
        let k = self.goals.len();
        let (current, _) = codes(depth);
        let mut cells = prefix.cells;
        // The digit weight of the tile on each cell (0: none).
        let mut weights = [0usize; 32];
        for (tile, &cell) in cells[..k - 1].iter().enumerate() {
            weights[usize::from(cell)] = self.weights[tile];
        }
        let mut last_cells = !prefix.used & prefix.all;
        let mut queued = 0;
        for (rank, word) in (first..).zip(&self.words[first..first + last_cells.count_ones() as usize]) {
            let last = last_cells.trailing_zeros();
            last_cells &= last_cells - 1;
            let before = word.get();
            let queued_here = fields_equal(before, current);
            if queued_here == 0 {
                continue;
            }
            word.add(queued_here * EXPANDED);
            cells[k - 1] = last as u8;
            let free = !(prefix.used | 1 << last) & prefix.all;
            let region = bits.cells_of(queued_here, free);
            // Every region is expanded at the depth it was reached, so a placement none of whose
            // regions was expanded before is first reached at this depth.
            let expanded = Expanded {
                first: before & before >> 1 & LOW_BITS == 0,
                now: region,
                before: bits.cells_of(fields_equal(before, EXPANDED), free),
            };
            G::record(&self.table, rank, &cells[..k], self.goals, depth, expanded);
            weights[last as usize] = self.weights[k - 1];
            queued += self.slide_into(&weights, rank, free, region, depth, pending, bits);
            weights[last as usize] = 0;
        }
        queued
    }

    /// Generates every placement made by sliding a pattern tile next to `region` into it (the
    /// blank then stands where the tile was), from the placement of dense rank `rank` whose
    /// tiles' digit weights stand on their cells in `weights` and whose free cells are `free`.
    /// Each is prefetched and queued in `pending`; the children that leave it are visited.
    /// Returns how many regions the visits queued.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn slide_into<B: Bits>(
        &self,
        weights: &[usize; 32],
        rank: usize,
        free: u32,
        region: u32,
        depth: u8,
        pending: &mut Pending,
        bits: B,
    ) -> usize {
        let mut queued = 0;
        let mut movers = grow(G::DIMENSION, region) & !free & all_cells(G::CELLS);
        while movers != 0 {
            let cell = movers.trailing_zeros();
            movers &= movers - 1;
            let blank = 1u32 << cell;
            let mut targets = grow(G::DIMENSION, blank) & region;
            while targets != 0 {
                let target = targets.trailing_zeros();
                targets &= targets - 1;
                let child = Child {
                    rank: Self::slid_rank(rank, weights, cell, target),
                    free: (free & !(1 << target)) | blank,
                    blank: cell,
                };
                prefetch(&self.words[child.rank]);
                if let Some(oldest) = pending.push(child) {
                    queued += self.visit(oldest, depth, bits);
                }
            }
        }
        queued
    }

    /// The dense rank of the placement of rank `rank` once the tile on cell `from` slides to the
    /// free cell `to`, where `weights` holds the digit weight of the tile on each cell (0 on a
    /// free one). Only the digits of the tiles between the two cells change: a slide along a
    /// row passes none, so it moves the tile's own digit by one.
    #[inline(always)]
    fn slid_rank(rank: usize, weights: &[usize; 32], from: u32, to: u32) -> usize {
        let (low, high) = (from.min(to) as usize, from.max(to) as usize);
        let own = weights[from as usize];
        let mut step = (high - low) * own;
        if high - low == G::DIMENSION {
            for between in &weights[low + 1..low + G::DIMENSION] {
                // Weights fall with the tile's index: an earlier tile between makes the moving
                // tile's digit count one cell fewer, a later one gets its own digit moved by one.
                step = if *between > own { step - own } else { step + between };
            }
        }
        if to > from { rank + step } else { rank - step }
    }

    /// Queues `child`'s blank's whole region for the next depth unless it was reached before;
    /// returns 1 if it queued it.
    #[inline(always)]
    fn visit<B: Bits>(&self, child: Child, depth: u8, bits: B) -> usize {
        let (_, next) = codes(depth);
        let blank = 1u32 << child.blank;
        let field = 2 * (child.free & (blank - 1)).count_ones();
        let word = &self.words[child.rank];
        // A plain load first: most children are reached already, and an atomic `or` is a locked
        // instruction.
        if (word.get() >> field) & EXPANDED != UNSEEN {
            return 0;
        }
        // Two workers that reach one region at once both mark it, and both count it.
        word.add(bits.fields_of(flood(G::DIMENSION, blank, child.free), child.free, next));
        self.queue(child.rank, depth + 1);
        1
    }
}

#[cfg(test)]
mod tests {
    use super::super::regions;
    use super::*;

    /// The cells next to `cell` on a `dimension`² board.
    fn neighbours(dimension: usize, cell: usize) -> impl Iterator<Item = usize> {
        let (row, col) = (cell / dimension, cell % dimension);
        [
            (row > 0).then(|| cell - dimension),
            (row + 1 < dimension).then(|| cell + dimension),
            (col > 0).then(|| cell - 1),
            (col + 1 < dimension).then(|| cell + 1),
        ]
        .into_iter()
        .flatten()
    }

    /// An independent check: the plain 0-1 BFS over (placement, blank) states, each kept
    /// separately, for small patterns on the board `G`: the distance of every placement, by
    /// dense rank, the least over the blank's cells.
    fn zero_one_bfs<G: Grid>(pattern: &[u8]) -> Vec<u8> {
        let free_cells = G::CELLS - pattern.len();
        state_distances::<G>(pattern)
            .chunks_exact(free_cells)
            .map(|blanks| blanks.iter().copied().min().unwrap_or(u8::MAX))
            .collect()
    }

    /// The distance of every (placement, blank) state of the 0-1 BFS, by the dense rank of the
    /// placement followed by the blank's cell: the blank's free cells in ascending order.
    fn state_distances<G: Grid>(pattern: &[u8]) -> Vec<u8> {
        const UNREACHED: u8 = u8::MAX;
        let k = pattern.len();
        let mut distance = vec![UNREACHED; placements(G::CELLS, k + 1)];
        let goals: Vec<usize> = pattern.iter().map(|&tile| usize::from(tile) - 1).collect();
        let mut layer = vec![G::rank(goals.iter().copied().chain([G::CELLS - 1]))];
        distance[layer[0]] = 0;
        let mut depth = 0;
        while !layer.is_empty() {
            let mut next = Vec::new();
            let mut i = 0;
            while let Some(&state) = layer.get(i) {
                i += 1;
                if distance[state] != depth {
                    continue;
                }
                let cells = unrank(state, k + 1, G::CELLS);
                let blank = usize::from(cells[k]);
                for target in neighbours(G::DIMENSION, blank) {
                    let mut moved = cells;
                    moved[k] = target as u8;
                    let slot = cells[..k].iter().position(|&cell| usize::from(cell) == target);
                    if let Some(slot) = slot {
                        moved[slot] = blank as u8;
                    }
                    let cost = u8::from(slot.is_some());
                    let child = G::rank(moved[..=k].iter().map(|&cell| usize::from(cell)));
                    if distance[child] > depth + cost {
                        distance[child] = depth + cost;
                        if cost == 0 { layer.push(child) } else { next.push(child) }
                    }
                }
            }
            layer = next;
            depth += 1;
        }
        distance
    }

    /// The pattern's Manhattan distance at the placement `cells`.
    fn manhattan_at<G: Grid>(cells: &[u8], pattern: &[u8]) -> u8 {
        let goals: Vec<u8> = pattern.iter().map(|&tile| tile - 1).collect();
        manhattan::<G>(cells, &goals)
    }

    /// The distances a finished table of `pattern` on the board `G` stands for, by dense rank:
    /// four-bit excesses over Manhattan (4×4), or the least over the blank's regions (5×5).
    fn decoded<G: Grid>(table: &[u8], pattern: &[u8]) -> Vec<u8> {
        let k = pattern.len();
        (0..placements(G::CELLS, k))
            .map(|rank| {
                let cells = unrank(rank, k, G::CELLS);
                let manhattan = manhattan_at::<G>(&cells[..k], pattern);
                let excess = if G::DIMENSION == 4 {
                    entry::read(table, rank)
                } else {
                    // The least over the blank's cells, each read as a search reads it.
                    let cells: Vec<usize> = cells[..k].iter().map(|&cell| usize::from(cell)).collect();
                    (0..G::CELLS)
                        .filter(|blank| !cells.contains(blank))
                        .map(|blank| regions::read(table, &cells, blank))
                        .min()
                        .unwrap_or(0)
                };
                entry::distance(excess, manhattan)
            })
            .collect()
    }

    #[test]
    fn words_hold_two_bits_per_free_cell_in_cell_order() {
        let free = 1 << 2 | 1 << 5 | 1 << 9;
        assert_eq!(fields_of(1 << 5 | 1 << 9, free, 2), 0b10_10_00);
        assert_eq!(cells_of(0b01_00_01, free), 1 << 2 | 1 << 9);
        assert_eq!(fields_equal(0b11_10_01_00, 1), 0b00_00_01_00);
        assert_eq!(fields_equal(0b11_10_01_00, 2), 0b00_01_00_00);
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn bmi2_moves_the_same_bits_as_the_portable_code() {
        if !std::arch::is_x86_feature_detected!("bmi2") {
            return;
        }
        // Every free-cell set of a 4×4 board with a spread of regions and field patterns.
        for free in (0..1u32 << 16).step_by(7) {
            for region in [0, free, free & 0x5A5A, free & 0xF00F, free & free.wrapping_neg()] {
                for code in [1, 2, 3] {
                    assert_eq!(Bmi2.fields_of(region, free, code), Portable.fields_of(region, free, code));
                }
            }
            let low_bits = u64::from(free).wrapping_mul(0x9E37_79B9_7F4A_7C15) & LOW_BITS;
            assert_eq!(Bmi2.cells_of(low_bits, free), Portable.cells_of(low_bits, free), "free {free:#x}");
        }
    }

    #[test]
    fn prefixes_walk_every_rank_in_order() {
        for (len, cells) in [(0, 16), (1, 16), (3, 16), (2, 25)] {
            let mut prefix = Prefix::at(0, len, cells);
            for rank in 0..placements(cells, len) {
                let expected = unrank(rank, len, cells);
                assert_eq!(prefix.cells[..len], expected[..len], "rank {rank} of {len} cells of {cells}");
                prefix.advance();
            }
        }
    }

    #[test]
    fn a_single_tile_table_is_its_manhattan_distance() {
        for tile in [1u8, 6, 15] {
            let table = build_table::<Four, AtomicU32>(&[tile]).expect("builds");
            let goal = usize::from(tile) - 1;
            let distances = decoded::<Four>(&table, &[tile]);
            for cell in 0..16usize {
                assert_eq!(distances[rank16([cell])], entry::manhattan(4, goal, cell), "tile {tile} at {cell}");
                assert_eq!(entry::read(&table, rank16([cell])), 0, "tile {tile} at {cell}: no excess");
            }
        }
    }

    #[test]
    fn the_region_search_agrees_with_a_plain_zero_one_bfs() {
        // [12, 15] and [11, 12, 15] wall the blank's corner off; [4, 8, 12] leaves it open. Five
        // tiles make 43,680 prefixes: several stretches, most of them skipped at some depths.
        let five: &[u8] = &[6, 7, 10, 11, 12];
        for pattern in [&[1u8, 2, 5][..], &[4, 8, 12], &[10, 14, 15], &[12, 15], &[11, 12, 15], five] {
            let table = build_table::<Four, AtomicU32>(pattern).expect("builds");
            assert_eq!(table.len(), entry::packed_len(placements(16, pattern.len())));
            assert_eq!(decoded::<Four>(&table, pattern), zero_one_bfs::<Four>(pattern), "{pattern:?}");
        }
        for pattern in [&[1u8, 2, 6][..], &[19, 23, 24], &[13], &[20, 24], &[2, 6]] {
            let table = build_table::<Five, AtomicU64>(pattern).expect("builds");
            assert_eq!(table.len(), table_len(5, pattern.len()));
            assert_eq!(decoded::<Five>(&table, pattern), zero_one_bfs::<Five>(pattern), "{pattern:?}");
            zero_aware_reads_agree::<Five>(&table, pattern);
        }
    }

    /// Every (placement, blank) state of a 5×5 table reads as its 0-1 BFS distance when the
    /// blank is in the main region or the pockets are flagged as nearer; otherwise as the main
    /// region's distance, which is no more than the pocket's.
    fn zero_aware_reads_agree<G: Grid>(table: &[u8], pattern: &[u8]) {
        let k = pattern.len();
        let exact = state_distances::<G>(pattern);
        let free_cells = G::CELLS - k;
        let mut pockets = 0;
        for rank in 0..placements(G::CELLS, k) {
            let placement = unrank(rank, k, G::CELLS);
            let manhattan = manhattan_at::<G>(&placement[..k], pattern);
            let cells: Vec<usize> = placement[..k].iter().map(|&cell| usize::from(cell)).collect();
            let used = cells.iter().fold(0u32, |used, &cell| used | 1 << cell);
            let blanks: Vec<usize> = (0..G::CELLS).filter(|&cell| used >> cell & 1 == 0).collect();
            let distance =
                |blank: usize| exact[rank * free_cells + blanks.iter().position(|&b| b == blank).unwrap_or(0)];
            let (_, main) = Regions::of(k).main_of(&cells);
            let main_distance = distance(main.trailing_zeros() as usize);
            let flagged = blanks.iter().any(|&blank| main >> blank & 1 == 0 && distance(blank) < main_distance);
            for &blank in &blanks {
                let read = entry::distance(regions::read(table, &cells, blank), manhattan);
                let in_main = main >> blank & 1 != 0;
                let expected = if in_main || flagged { distance(blank) } else { main_distance };
                assert_eq!(read, expected, "{pattern:?} at {cells:?}, blank on {blank}");
                assert!(read <= distance(blank));
                pockets += usize::from(!in_main);
            }
        }
        if k > 1 {
            assert!(pockets > 0, "{pattern:?}: some placement leaves a pocket");
        }
    }
}
