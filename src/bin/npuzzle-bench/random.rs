//! `npuzzle-bench random --sizes 6,10,16,32,64,128 --optimality fast` solves seeded random
//! solvable boards of each size in this process and prints, per size, the medians of the
//! moves, of moves against the board's Manhattan distance, and of the milliseconds.
//!
//! It measures the sizes no benchmark file has, up to boards only FAST answers in time.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use npuzzle::random::{Rng, random_board};
use npuzzle::solver::{NoProgress, Stop};

use crate::method::{Method, gap, median, options, solver};

/// `npuzzle-bench random`'s flags.
#[derive(Debug, clap::Args)]
pub struct RandomArgs {
    /// The board sides, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "6,10,16,32,64,128")]
    sizes: Vec<usize>,
    /// Boards of each size; the figures are their medians.
    #[arg(long, default_value_t = 5)]
    boards: usize,
    /// The boards of side n are drawn from seed + n, so a size's boards do not depend on the
    /// other sizes asked for.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How the boards are solved.
    #[command(flatten)]
    method: Method,
}

/// What solving one random board gave.
struct Sample {
    moves: i32,
    manhattan: u32,
    elapsed: Duration,
    lower_bound: u32,
    optimal: bool,
}

/// Runs `npuzzle-bench random`: a row per size, `n<TAB>boards<TAB>moves<TAB>moves/manhattan
/// <TAB>ms<TAB>max ms<TAB>proven<TAB>gap`, each a median but max ms and the count of answers
/// proven optimal; gap is the median (moves - bound) / bound, in percent.
pub fn run_random(args: &RandomArgs) -> Result<bool> {
    let options = options(&args.method);
    let solver = solver(args.sizes.iter().copied(), &args.method)?;
    let stop = Stop::new();
    let mut out = io::stdout().lock();
    writeln!(out, "n\tboards\tmoves\tmoves/manhattan\tms\tmax ms\tproven\tgap %")?;
    for &n in &args.sizes {
        let mut rng = Rng::new(args.seed.wrapping_add(n as u64));
        let samples = (0..args.boards.max(1))
            .map(|_| {
                let board = random_board(n, &mut rng)?;
                let started = Instant::now();
                let solution = solver
                    .solve(&board, &options, &mut NoProgress, &stop)
                    .with_context(|| format!("a random {n}x{n} board"))?;
                Ok(Sample {
                    moves: solution.moves(),
                    manhattan: board.manhattan(),
                    elapsed: started.elapsed(),
                    lower_bound: solution.lower_bound(),
                    optimal: solution.is_optimal(),
                })
            })
            .collect::<Result<Vec<Sample>>>()?;
        let moves = median(samples.iter().map(|sample| f64::from(sample.moves)));
        let ratio = median(samples.iter().map(|sample| f64::from(sample.moves) / f64::from(sample.manhattan.max(1))));
        let ms = median(samples.iter().map(|sample| sample.elapsed.as_secs_f64() * 1e3));
        let max = samples.iter().map(|sample| sample.elapsed.as_secs_f64() * 1e3).fold(0.0, f64::max);
        let proven = samples.iter().filter(|sample| sample.optimal).count();
        let gap = median(samples.iter().map(|sample| gap(sample.moves, sample.lower_bound) * 100.0));
        writeln!(out, "{n}\t{}\t{moves:.0}\t{ratio:.3}\t{ms:.1}\t{max:.1}\t{proven}\t{gap:.1}", samples.len())?;
        out.flush()?;
    }
    Ok(true)
}
