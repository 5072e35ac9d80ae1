//! The pattern-database file cache: a saved file loads back identical, mapped or resident, and
//! gives the same bounds either way; a corrupt, truncated, old or foreign file is detected with
//! the matching error and rebuilt by `load_or_build`; a file replaced while mapped leaves the
//! mapping whole; a 4×4 file holds four-bit entries, and one of the byte-per-entry version 1 is
//! rebuilt; and a background load fills its slot. A 3-3-3-3-3 partition keeps each build
//! instant.

use std::fs;
use std::path::PathBuf;
use std::sync::Arc;

use npuzzle::random::{Rng, random_board};
use npuzzle::service::DatabaseSlot;
use npuzzle::solver::heuristic::Estimator;
use npuzzle::solver::pdb::cache::file_name;
use npuzzle::solver::pdb::partition::placements;
use npuzzle::solver::{Partition, PatternDatabases, PdbError, TableMemory};

fn tiny_partition() -> Partition {
    Partition::new(vec![vec![1, 2, 3], vec![4, 5, 6], vec![7, 8, 9], vec![10, 11, 12], vec![13, 14, 15]])
        .expect("a valid partition")
}

/// A fresh, empty cache directory for one test.
fn cache_dir(test: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pdb-file-tests").join(test);
    let _ = fs::remove_dir_all(&dir);
    dir
}

/// The tiny databases built into a fresh cache directory for one test.
struct Built {
    dir: PathBuf,
    partition: Partition,
    databases: Arc<PatternDatabases>,
    /// The file they were saved to.
    path: PathBuf,
}

/// Builds the tiny databases into the fresh cache directory of `test`.
fn build(test: &str) -> Built {
    let dir = cache_dir(test);
    let partition = tiny_partition();
    let databases = PatternDatabases::load_or_build_partition(&dir, &partition).expect("built");
    let path = dir.join(file_name(&partition));
    Built { dir, partition, databases, path }
}

#[test]
fn a_saved_file_loads_back_identical() {
    let Built { dir, partition, databases: built, path } = build("roundtrip");
    assert!(path.exists(), "the file is written");
    assert_eq!(PatternDatabases::load(&path, &partition).expect("loads"), *built);
    // The builders' lock file stays (removing it would race a waiting builder), and so may the
    // record of a full check (written only once the file is a few seconds old); nothing else does.
    let mut names: Vec<String> = fs::read_dir(&dir)
        .expect("the cache dir")
        .map(|entry| entry.expect("an entry").file_name().to_string_lossy().into_owned())
        .filter(|name| !name.ends_with(".checked"))
        .collect();
    names.sort();
    let file = file_name(&partition);
    let lock = PathBuf::from(&file).with_extension("lock").to_string_lossy().into_owned();
    assert_eq!(names, [file, lock], "no temporary file is left behind");
}

/// The bound `databases` give each of `boards`.
fn bounds(databases: &PatternDatabases, boards: &[Vec<u16>]) -> Vec<u32> {
    let heuristic = databases.heuristic();
    boards.iter().map(|tiles| heuristic.value(&heuristic.start(tiles))).collect()
}

#[test]
fn mapped_and_resident_tables_hold_the_built_entries_and_give_the_same_bounds() {
    let Built { partition, databases: built, path, .. } = build("memory");
    let mapped = PatternDatabases::load_as(&path, &partition, TableMemory::Mapped).expect("mapped");
    let resident = PatternDatabases::load_as(&path, &partition, TableMemory::Resident).expect("resident");
    assert_eq!((mapped.memory(), resident.memory()), (TableMemory::Mapped, TableMemory::Resident));
    assert_eq!(mapped, *built);
    assert_eq!(resident, *built);
    let mut rng = Rng::new(17);
    let boards: Vec<Vec<u16>> =
        (0..200).map(|_| random_board(4, &mut rng).expect("a random board").tiles().to_vec()).collect();
    let expected = bounds(&built, &boards);
    assert!(expected.iter().any(|&bound| bound > 0), "the bounds say nothing");
    assert_eq!(bounds(&mapped, &boards), expected);
    assert_eq!(bounds(&resident, &boards), expected);
}

#[test]
fn a_file_replaced_while_mapped_leaves_the_mapping_whole() {
    let Built { partition, databases: built, path, .. } = build("replaced");
    let mapped = PatternDatabases::load(&path, &partition).expect("mapped");
    // A save writes a new file and renames it over the old name, as a rebuild does; the old
    // file keeps its inode and its pages for as long as it is mapped. (Truncating the mapped
    // file in place instead would raise SIGBUS at the next read of a page past its new end.)
    let other = Partition::new(vec![vec![1, 2, 4], vec![3, 5, 6], vec![7, 8, 9], vec![10, 11, 12], vec![13, 14, 15]])
        .expect("a valid partition");
    let replacement = PatternDatabases::build(&other).expect("other tables");
    replacement.save(&path).expect("saved over the mapped file");
    assert_eq!(mapped, *built, "the mapped tables changed under the search");
    assert!(matches!(PatternDatabases::load(&path, &partition), Err(PdbError::PartitionMismatch { .. })));
}

#[test]
fn a_corrupt_byte_is_detected_and_the_file_rebuilt() {
    let Built { dir, partition, databases: built, path } = build("corrupt");
    let mut bytes = fs::read(&path).expect("the file");
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x01;
    fs::write(&path, &bytes).expect("corrupted");
    let err = PatternDatabases::load(&path, &partition).expect_err("corruption is detected");
    assert!(matches!(err, PdbError::ChecksumMismatch { .. }), "{err}");
    let rebuilt = PatternDatabases::load_or_build_partition(&dir, &partition).expect("rebuilt");
    assert_eq!(rebuilt, built);
    assert_eq!(PatternDatabases::load(&path, &partition).expect("the rewritten file loads"), *built);
}

#[test]
fn truncated_old_and_foreign_files_are_refused_and_rebuilt() {
    let Built { dir, partition, databases: built, path } = build("refused");
    let good = fs::read(&path).expect("the file");

    fs::write(&path, &good[..good.len() - 100]).expect("truncated");
    assert!(matches!(PatternDatabases::load(&path, &partition), Err(PdbError::WrongSize { .. })));

    let mut old = good.clone();
    old[8] = old[8].wrapping_add(1); // The format version follows the 8 magic bytes.
    fs::write(&path, &old).expect("an old version");
    assert!(matches!(PatternDatabases::load(&path, &partition), Err(PdbError::OldVersion { .. })));

    let mut foreign = good.clone();
    foreign[0] = b'X';
    fs::write(&path, &foreign).expect("not a database");
    assert!(matches!(PatternDatabases::load(&path, &partition), Err(PdbError::BadMagic { .. })));

    fs::write(&path, &good).expect("restored");
    let other = Partition::new(vec![vec![1, 2, 4], vec![3, 5, 6], vec![7, 8, 9], vec![10, 11, 12], vec![13, 14, 15]])
        .expect("a valid partition");
    assert!(matches!(PatternDatabases::load(&path, &other), Err(PdbError::PartitionMismatch { .. })));

    fs::write(&path, &old).expect("an old version again");
    assert_eq!(PatternDatabases::load_or_build_partition(&dir, &partition).expect("rebuilt"), built);
    assert_eq!(fs::read(&path).expect("the rewritten file"), good);
}

#[test]
fn a_four_by_four_file_holds_two_entries_a_byte_and_a_version_one_file_is_rebuilt() {
    let Built { dir, partition, databases: built, path } = build("nibbles");
    let good = fs::read(&path).expect("the file");
    let entries: Vec<usize> = partition.stored().map(|pattern| placements(16, pattern.len())).collect();
    let header = 8 + 4 + 4 + 1 + partition.patterns().iter().map(|pattern| 1 + pattern.len()).sum::<usize>();
    assert_eq!(good.len(), header + entries.iter().map(|entries| entries.div_ceil(2)).sum::<usize>() + 8);
    assert_eq!(good[8..12], 2u32.to_le_bytes(), "4x4 files are version 2");
    assert!(file_name(&partition).ends_with("-v2.bin"), "{}", file_name(&partition));

    // What version 1 wrote under this name: the same header but its version, a byte per entry.
    let mut old = good[..header].to_vec();
    old[8..12].copy_from_slice(&1u32.to_le_bytes());
    old.resize(header + entries.iter().sum::<usize>() + 8, 0);
    fs::write(&path, &old).expect("a version 1 file");
    let err = PatternDatabases::load(&path, &partition).expect_err("a version 1 file is refused");
    assert!(matches!(err, PdbError::OldVersion { found: 1, expected: 2, .. }), "{err}");
    assert_eq!(PatternDatabases::load_or_build_partition(&dir, &partition).expect("rebuilt"), built);
    assert_eq!(fs::read(&path).expect("the rewritten file"), good);
}

#[test]
fn a_missing_file_is_reported_as_missing() {
    let dir = cache_dir("missing");
    let err = PatternDatabases::load(&dir.join("absent.bin"), &tiny_partition()).expect_err("no file");
    assert!(err.is_missing(), "{err}");
}

#[test]
fn a_background_load_fills_its_slot() {
    let dir = cache_dir("background");
    let (slot, handle) = DatabaseSlot::spawn_load_or_build(dir, tiny_partition());
    handle.join().expect("the loader thread").expect("loaded");
    let databases = slot.get().expect("the slot is filled");
    assert_eq!(databases.partition(), &tiny_partition());
    assert!(DatabaseSlot::new().get().is_none());
}

#[test]
fn partitions_must_cover_each_tile_once() {
    assert!(matches!(Partition::new(vec![vec![1, 2, 3]]), Err(PdbError::InvalidPartition(_))));
    assert!(matches!(Partition::new(vec![(1..=8).collect(), (8..=15).collect()]), Err(PdbError::InvalidPartition(_))));
    assert!(Partition::new(vec![(1..=8).collect(), (9..=15).collect()]).is_ok());
}
