//! What a batch did, said once at its end: boards done, proven optimal and failed, the boards
//! skipped as already in the output, the search time's median and 90th percentile, and every
//! answer that disagrees with a length the input gave.

use std::fmt::Write;
use std::time::Duration;

use crate::proto;

/// What a batch did so far.
#[derive(Debug, Default)]
pub struct Summary {
    /// Boards answered by this run (unsolvable ones included).
    pub done: usize,
    /// Of those, the answers proven optimal (and the unsolvable boards).
    pub optimal: usize,
    /// Boards whose call failed (recorded with `--keep-going`).
    pub failed: usize,
    /// Boards skipped because the output already had them.
    pub skipped: usize,
    /// Whether the output ended in a torn line, cut off and done again.
    pub torn: bool,
    /// The answers that disagree with the input's known length: (id, known, answered).
    pub disagreements: Vec<(String, i32, i32)>,
    /// The search time of each answer, in seconds.
    seconds: Vec<f64>,
}

impl Summary {
    /// Counts the answer `solution` for board `id`, checked against `known` when given.
    pub fn answered(&mut self, id: &str, solution: &proto::Solution, known: Option<i32>) {
        self.done += 1;
        if solution.optimal || !solution.solvable() {
            self.optimal += 1;
        }
        let micros = solution.stats.map_or(0, |stats| stats.elapsed_micros);
        self.seconds.push(Duration::from_micros(micros).as_secs_f64());
        if let Some(known) = known
            && disagrees(solution, known)
        {
            self.disagreements.push((id.to_owned(), known, solution.moves));
        }
    }

    /// The report's lines: the counts, the time percentiles, then each disagreement.
    pub fn report(&self, elapsed: Duration) -> String {
        let rate = self.done as f64 / elapsed.as_secs_f64().max(1e-9);
        let mut text = format!(
            "{} done ({} optimal), {} failed, {} already in the output; {:.1} s, {rate:.0} boards/s",
            self.done,
            self.optimal,
            self.failed,
            self.skipped,
            elapsed.as_secs_f64()
        );
        if !self.seconds.is_empty() {
            let mut sorted = self.seconds.clone();
            sorted.sort_by(f64::total_cmp);
            let at = |fraction: f64| sorted[((sorted.len() - 1) as f64 * fraction).round() as usize];
            let _ = write!(text, "; search time p50 {}, p90 {}", short(at(0.5)), short(at(0.9)));
        }
        text.push('\n');
        if self.torn {
            text.push_str(
                "note: the output's last line was torn (cut off mid-write); it was dropped and its board done again\n",
            );
        }
        for (id, known, moves) in &self.disagreements {
            let _ = writeln!(text, "disagreement: {id}: the input says {known} moves, the answer has {moves}");
        }
        text
    }
}

/// Whether an answer contradicts the known optimal length: a proven optimum of another length,
/// a path shorter than it, or a lower bound above it (an unsolvable board is known as -1).
fn disagrees(solution: &proto::Solution, known: i32) -> bool {
    if !solution.solvable() {
        return known != -1;
    }
    let bound = i32::try_from(solution.lower_bound).unwrap_or(i32::MAX);
    (solution.optimal && solution.moves != known) || solution.moves < known || bound > known
}

/// A time in seconds as Rust prints a duration, to the microsecond (`1.25ms`, `3.2s`).
fn short(seconds: f64) -> String {
    format!("{:?}", Duration::from_micros((seconds * 1e6).round() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(moves: i32, optimal: bool, lower_bound: u32, micros: u64) -> proto::Solution {
        proto::Solution {
            solvable: Some(moves >= 0),
            moves,
            optimal,
            lower_bound,
            stats: Some(proto::SearchStats { elapsed_micros: micros, ..Default::default() }),
            ..Default::default()
        }
    }

    #[test]
    fn only_answers_that_contradict_the_known_length_disagree() {
        let mut summary = Summary::default();
        summary.answered("right", &answer(50, true, 50, 1000), Some(50));
        summary.answered("unproven", &answer(54, false, 48, 2000), Some(50));
        summary.answered("other optimum", &answer(52, true, 52, 3000), Some(50));
        summary.answered("bound above", &answer(56, false, 52, 4000), Some(50));
        summary.answered("unsolvable", &answer(-1, false, 0, 0), Some(-1));
        summary.answered("unknown", &answer(30, true, 30, 5000), None);
        let ids: Vec<&str> = summary.disagreements.iter().map(|(id, _, _)| id.as_str()).collect();
        assert_eq!(ids, ["other optimum", "bound above"]);
        assert_eq!((summary.done, summary.optimal), (6, 4));
        let report = summary.report(Duration::from_secs(1));
        assert!(
            report.starts_with("6 done (4 optimal), 0 failed, 0 already in the output; 1.0 s, 6 boards/s"),
            "{report}"
        );
        assert!(report.contains("search time p50 3ms, p90 5ms"), "{report}");
        assert!(
            report.contains("disagreement: other optimum: the input says 50 moves, the answer has 52\n"),
            "{report}"
        );
    }
}
