//! `npuzzle-client batch`: labels a file of boards with their answers through any server (the
//! one in the process, or `--addr`), `--concurrency` calls at once, one JSON line a board in
//! `--out`. The output is the record of finished work: a rerun with the same `--out` skips the
//! ids already there, so a killed batch resumes where it stopped and no board is labelled twice.
//!
//! One concern a file: [`input`] reads the boards (JSONL, TSV or a directory), [`record`] writes
//! an answer or a failure as a line, [`out_file`] appends lines and reads back what is done,
//! [`summary`] counts and checks against known lengths, `progress` draws the bar; this file
//! holds the flags and the loop that keeps the calls going.

pub mod input;
pub mod out_file;
mod progress;
pub mod record;
pub mod summary;

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::Instant;

use thiserror::Error;
use tokio::task::JoinSet;

pub use input::{InputError, Item, read_input};
pub use out_file::{OutFile, OutFileError};
pub use summary::Summary;

use super::{Client, SearchFlags, ServerFlags};

/// `npuzzle-client batch`'s flags.
#[derive(Debug, Clone, clap::Args)]
pub struct BatchFlags {
    /// The boards: a JSONL file ({"id": ..., "tiles": [...]} or {"id": ..., "text": "..."} a
    /// line), a TSV file like benchmarks/ (id, an optional known length, the tiles), or a
    /// directory of puzzle files (*.txt).
    #[arg(value_name = "INPUT")]
    pub input: PathBuf,
    /// The JSONL output, one line a board; the ids already in it are skipped (resume).
    #[arg(long, value_name = "OUT.jsonl")]
    pub out: PathBuf,
    /// Calls at once [default: four times the cores for the in-process server, which has a
    /// search slot per core and queues the rest; with --addr, the cores here: set it to the
    /// search slots behind the address].
    #[arg(long, value_name = "N")]
    pub concurrency: Option<NonZeroUsize>,
    /// Leave the path out of each line.
    #[arg(long)]
    pub no_path: bool,
    /// Record a board whose call fails (its status and error) and go on; without it the first
    /// failure stops the batch.
    #[arg(long)]
    pub keep_going: bool,
    /// What each search must find, as for one board.
    #[command(flatten)]
    pub search: SearchFlags,
    /// Which server answers, as for one board.
    #[command(flatten)]
    pub server: ServerFlags,
}

impl BatchFlags {
    /// The calls at once: `--concurrency`, else the cores (with `--addr`) or four times as many
    /// (the in-process server, where calls waiting for a slot hide the next calls' round trips).
    pub fn concurrency(&self) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
        let default = if self.server.addr.is_some() { cores } else { 4 * cores };
        self.concurrency.map_or(default, NonZeroUsize::get)
    }
}

/// Why a batch stopped before its last board.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum BatchError {
    /// The output file cannot be used.
    #[error(transparent)]
    Out(#[from] OutFileError),
    /// A board's call failed (without `--keep-going`, or with a failure not about the board).
    #[error("board {id}: {message}")]
    Board {
        /// The board's id.
        id: String,
        /// The error in the command line's words.
        message: String,
    },
    /// A call's task ended without an answer (it panicked).
    #[error("a call of the batch ended without an answer: {0}")]
    Task(#[from] tokio::task::JoinError),
}

/// Labels `items` through `client` into `flags.out`, skipping the ids already there; `summary`
/// counts as it goes, so a batch that stops early can still say what it did.
pub async fn run(
    client: &Client,
    items: Vec<Item>,
    flags: &BatchFlags,
    summary: &mut Summary,
) -> Result<(), BatchError> {
    let (mut out, earlier) = OutFile::open(&flags.out)?;
    let (skipped, items): (Vec<Item>, Vec<Item>) = items.into_iter().partition(|item| earlier.ids.contains(&item.id));
    summary.skipped = skipped.len();
    summary.torn = earlier.torn;
    let options = flags.search.options();
    let concurrency = flags.concurrency();
    let bar = progress::Bar::new(items.len());
    let mut waiting = items.into_iter();
    let mut calls = JoinSet::new();
    loop {
        while calls.len() < concurrency
            && let Some(item) = waiting.next()
        {
            let client = client.clone();
            calls.spawn(async move {
                let started = Instant::now();
                let answer = client.solve(&item.board, options).await;
                (item, answer, started.elapsed())
            });
        }
        let Some(joined) = calls.join_next().await else { return Ok(()) };
        let (item, answer, elapsed) = joined?;
        match answer {
            Ok(solution) => {
                out.write_line(&record::answer_line(&item.id, &solution, !flags.no_path))?;
                summary.answered(&item.id, &solution, item.known);
            }
            Err(error) if flags.keep_going && record::is_about_the_board(&error) => {
                out.write_line(&record::failure_line(&item.id, &error, elapsed, flags.search.time_limit))?;
                summary.failed += 1;
            }
            Err(error) => {
                let message = record::failure_message(&error, flags.search.time_limit);
                return Err(BatchError::Board { id: item.id, message });
            }
        }
        bar.advance(summary.failed);
    }
}
