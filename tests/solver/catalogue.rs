//! Catalogues of partitions: the bound is the largest of the groups' sums, each with its
//! reflection, so it is admissible against exact distances and at least each group's bound; a
//! slide updates it as a fresh evaluation would; a catalogue's file round-trips under its own
//! name; the 5×5 catalogues reuse Korf & Felner's tables; bad catalogues are refused. Two 4×4
//! groups of 5-tile patterns keep each build in milliseconds.

use std::path::PathBuf;

use crate::support::bfs_distances_within;
use npuzzle::Direction;
use npuzzle::board::tile_to_slide;
use npuzzle::solver::heuristic::Estimator;
use npuzzle::solver::pdb::cache::file_name;
use npuzzle::solver::{Partition, PatternDatabases, PdbError};

/// The rows, three pieces of five tiles.
fn rows() -> Vec<Vec<u8>> {
    vec![(1..=5).collect(), (6..=10).collect(), (11..=15).collect()]
}

/// Blocks: the top left, the top right and the bottom half, less the blank.
fn blocks() -> Vec<Vec<u8>> {
    vec![vec![1, 2, 3, 5, 6], vec![4, 7, 8, 11, 12], vec![9, 10, 13, 14, 15]]
}

fn bound(databases: &PatternDatabases, tiles: &[u16]) -> u32 {
    let heuristic = databases.heuristic();
    heuristic.value(&heuristic.start(tiles))
}

#[test]
fn the_bound_is_the_largest_of_the_groups_and_admissible() {
    let catalogue = Partition::catalogue(4, vec![rows(), blocks()]).expect("a catalogue");
    assert_eq!(catalogue.sizes(), "5-5-5+5-5-5");
    assert_eq!(catalogue.groups().collect::<Vec<_>>(), vec![&rows()[..], &blocks()[..]]);
    let both = PatternDatabases::build(&catalogue).expect("built");
    let by_rows = PatternDatabases::build(&Partition::new(rows()).expect("rows")).expect("built");
    let by_blocks = PatternDatabases::build(&Partition::new(blocks()).expect("blocks")).expect("built");
    let heuristic = both.heuristic();
    let exact = bfs_distances_within(4, 12);
    assert!(exact.len() > 10_000, "{} positions", exact.len());
    let (mut rows_higher, mut blocks_higher) = (0, 0);
    for (tiles, &distance) in &exact {
        let (value, rows, blocks) = (bound(&both, tiles), bound(&by_rows, tiles), bound(&by_blocks, tiles));
        assert_eq!(value, rows.max(blocks), "{tiles:?}");
        assert!(value <= distance, "h = {value} > {distance} for {tiles:?}");
        rows_higher += usize::from(rows > blocks);
        blocks_higher += usize::from(blocks > rows);
        let blank = tiles.iter().position(|&t| t == 0).expect("a blank");
        if let Some(from) = tile_to_slide(4, blank, Direction::Up) {
            let slid = heuristic.slide(&heuristic.start(tiles), tiles, tiles[from], from, blank);
            let mut moved = tiles.clone();
            moved.swap(blank, from);
            assert_eq!(heuristic.value(&slid), bound(&both, &moved), "after a slide from {tiles:?}");
        }
    }
    assert!(rows_higher > 0 && blocks_higher > 0, "each group wins somewhere: {rows_higher} and {blocks_higher}");
}

#[test]
fn a_catalogue_file_round_trips_under_its_own_name() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("catalogue-tests");
    let _ = std::fs::remove_dir_all(&dir);
    let catalogue = Partition::catalogue(4, vec![rows(), blocks()]).expect("a catalogue");
    let rows_only = Partition::new(rows()).expect("rows");
    assert!(file_name(&catalogue).starts_with("pdb-4x4-5-5-5+5-5-5-"), "{}", file_name(&catalogue));
    assert_ne!(file_name(&catalogue), file_name(&rows_only));
    let built = PatternDatabases::load_or_build_partition(&dir, &catalogue).expect("built");
    let path = dir.join(file_name(&catalogue));
    assert_eq!(PatternDatabases::load(&path, &catalogue).expect("loads"), *built);
    assert!(matches!(PatternDatabases::load(&path, &rows_only), Err(PdbError::PartitionMismatch { .. })));
}

#[test]
fn the_five_by_five_catalogue_adds_two_tables_to_korf_and_felners() {
    let catalogue: Partition = "6-6-6-6+6-6-6-6".parse().expect("a built-in catalogue");
    let korf = Partition::six_six_six_six();
    assert_eq!(catalogue, Partition::catalogue_of_two());
    assert_eq!(catalogue.groups().next(), Some(korf.patterns()));
    let stored: Vec<&[u8]> = catalogue.stored().collect();
    assert_eq!(stored[..2], korf.stored().collect::<Vec<_>>()[..], "Korf & Felner's two tables come first");
    assert_eq!(stored[2..], [&[14, 15, 19, 20, 23, 24][..], &[13, 16, 17, 18, 21, 22][..]]);
    assert_eq!(catalogue.table_bytes(), 2 * korf.table_bytes());
}

#[test]
fn the_five_by_five_catalogue_of_four_adds_four_tables_to_the_catalogue_of_two() {
    let catalogue: Partition = "6-6-6-6+6-6-6-6+6-6-6-6+6-6-6-6".parse().expect("a built-in catalogue");
    let two = Partition::catalogue_of_two();
    assert_eq!(catalogue, Partition::catalogue_of_four());
    assert_eq!(catalogue.groups().count(), 4);
    assert!(catalogue.groups().zip(two.groups()).all(|(group, first)| group == first), "the catalogue of two first");
    let stored: Vec<&[u8]> = catalogue.stored().collect();
    assert_eq!(stored[..4], two.stored().collect::<Vec<_>>()[..], "its four tables come first");
    // The corner blocks of the new groups are read from Korf & Felner's table of blocks, and
    // the fourth group's corner pattern from the second group's.
    assert_eq!(
        stored[4..],
        [
            &[5, 10, 15, 19, 20, 24][..],
            &[3, 4, 8, 9, 13, 14][..],
            &[1, 6, 11, 16, 21, 22][..],
            &[2, 7, 12, 13, 17, 18][..]
        ]
    );
    assert_eq!(catalogue.table_bytes(), 2 * two.table_bytes());
}

#[test]
fn a_catalogue_has_one_to_four_groups_each_covering_every_tile() {
    let invalid = |groups| matches!(Partition::catalogue(4, groups), Err(PdbError::InvalidPartition(_)));
    assert!(invalid(vec![]));
    assert!(!invalid(vec![rows(), blocks(), rows(), blocks()]), "four groups");
    assert!(invalid(vec![rows(), blocks(), rows(), blocks(), rows()]), "five groups");
    assert!(invalid(vec![rows(), blocks()[..2].to_vec()]), "a group without tiles 9 to 15");
    let mut twice = blocks();
    twice[0].push(15);
    assert!(invalid(vec![rows(), twice]), "tile 15 twice in a group");
    let singles: Vec<Vec<u8>> = (1..=15).map(|tile| vec![tile]).collect();
    assert!(invalid(vec![rows(), singles]), "more than sixteen patterns");
}
