//! `npuzzle-client`: reads a puzzle in the spec's format from a file (`npuzzle-client
//! puzzle.txt`) or stdin (`-` or no file), solves it over gRPC, and prints what the spec's
//! `main()` prints (or, with `--json`, the Solution as JSON). `--hint` asks for the next best
//! move instead: `12 moves to go; slide 5 left (or 6 up)`.
//!
//! With `--optimality bounded|fast|anytime` an answer not proven minimal is headed `Number of
//! moves = K (not proven minimal; the minimum is at least L)` instead. `--moves` prints the
//! blank's moves (one letter each, U D L R: the way the blank goes) on one line instead of the
//! boards; so does an answer whose boards the server left out (more than 4,194,304 tiles in
//! all, see `Solution.boards`), with a note on stderr. `--tile-moves` prints the tiles' moves
//! instead (`1L 2U`: tile 1 slides left, then tile 2 up). Answers of up to 256 MiB are
//! accepted, so a 128×128 answer arrives whole.
//!
//! An `https://` address is spoken to over TLS (`--tls-ca`, `--tls-cert`/`--tls-key` for mTLS,
//! `--tls-server-name`); `--auth-token-file` or `NPUZZLE_TOKEN` gives the access token, which
//! is never sent in plaintext to a host other than loopback.
//!
//! With neither `--addr` nor `NPUZZLE_ADDR` it starts the library's own server in-process on
//! 127.0.0.1:0 and talks real gRPC to it, so `npuzzle-client < puzzle.txt` works alone.
//!
//! A server's error that carries the service's `ErrorInfo` is said in the command line's words
//! (see [`client::advice`]): `error: --weight: ...`, or a spent time limit with the flags that
//! answer in time.
//!
//! Exit codes: 0 for an answer (also "No solution possible") and for a closed stdout; 1 when the
//! server or the connection fails; 2 when the input is not a puzzle or the flags do not go
//! together, found before any connection.
//!
//! `npuzzle-client batch INPUT --out OUT.jsonl` labels a file of boards instead, resumably (see
//! [`client::batch`]); a puzzle file named `batch` is given as `./batch`. Its exit codes are the
//! same, and 1 too when an answer disagrees with a length the input gives.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::{CommandFactory, Parser, Subcommand};
use indicatif::{HumanCount, ProgressBar, ProgressStyle};
use npuzzle::client::batch::BatchFlags;
use npuzzle::client::{
    self, Client, ClientError, SearchFlags, ServerFlags, StreamEvent, hint_json, hint_text, solution_json,
    solution_text, tile_moves,
};
use npuzzle::service::{DatabaseSlot, Limits};
use npuzzle::solver::pdb::cache::file_name;
use npuzzle::solver::{Partition, PatternDatabases, cache_dir, roughly, wants_pattern_databases};
use npuzzle::text::moves_header;
use npuzzle::{Board, proto, server};

/// Exit code for an input that is not a puzzle (or a command line that is wrong, as clap does).
const EXIT_BAD_INPUT: u8 = 2;
/// Exit code for a failure of the server or the connection.
const EXIT_FAILURE: u8 = 1;
/// How long a call to the in-process server may wait for a search slot: longer than any batch.
const EMBEDDED_QUEUE_TIMEOUT: Duration = Duration::from_secs(7 * 24 * 3600);

/// Solves a sliding-tile puzzle read from a file or stdin in the fewest moves, through an
/// npuzzle server; `npuzzle-client batch` labels a file of boards.
#[derive(Debug, Parser)]
#[command(
    name = "npuzzle-client",
    version,
    args_conflicts_with_subcommands = true,
    after_help = "Exit codes: 0 an answer (also \"No solution possible\"), 1 a server or connection error, \
                  2 input that is not a puzzle or flags that do not go together (both checked before connecting). \
                  A puzzle file named batch is given as ./batch."
)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    /// The puzzle: N, then the N*N tiles, 0 for the blank. `-` or none: read it from stdin.
    #[arg(value_name = "FILE")]
    puzzle: Option<PathBuf>,
    /// Use SolveStream and show live progress on stderr (when stderr is a terminal).
    #[arg(long)]
    stream: bool,
    /// Print the blank's moves on one line instead of the boards: U D L R is the way the blank
    /// goes (toward row 0, row N-1, column 0, column N-1); each tile slides the opposite way.
    #[arg(long, conflicts_with = "json")]
    moves: bool,
    /// Print the tiles' moves on one line instead of the boards: `5L 6U` is tile 5 sliding
    /// left, then tile 6 up (U D L R is the way the tile goes; the blank goes the opposite way).
    #[arg(long, conflicts_with_all = ["json", "moves"])]
    tile_moves: bool,
    /// Print how far the goal is and the next best move instead of a solution, e.g. `12 moves to
    /// go; slide 5 left (or 6 up)`; searched for at most --time-limit [default: the server's
    /// default for hints, a few seconds].
    #[arg(long, conflicts_with_all = [
        "stream", "moves", "tile_moves", "optimality", "weight", "algorithm", "heuristic", "max_expanded_nodes",
    ])]
    hint: bool,
    /// Print the Solution as JSON (the canonical protobuf JSON mapping) instead of the spec's text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    search: SearchFlags,
    #[command(flatten)]
    server: ServerFlags,
}

/// What the client does besides solving one board.
#[derive(Debug, Subcommand)]
enum Command {
    /// Label a file of boards (JSONL, TSV or a directory of puzzle files) with their answers,
    /// one JSON line each in --out; run again with the same --out to resume.
    Batch(BatchFlags),
}

impl Args {
    /// The flags parsed and checked against each other, as clap reports a bad command line.
    fn parse_checked() -> Args {
        let args = Args::parse();
        let search = match &args.command {
            Some(Command::Batch(batch)) => &batch.search,
            None => &args.search,
        };
        if let Err((kind, message)) = search.check() {
            Args::command().error(kind, message).exit();
        }
        args
    }
}

/// How a run ended badly, and so which exit code it gets.
enum Failure {
    BadInput(anyhow::Error),
    Service(anyhow::Error),
}

fn main() -> ExitCode {
    let args = Args::parse_checked();
    let outcome = match &args.command {
        Some(Command::Batch(flags)) => batch(flags),
        None => run(&args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            let (code, error) = match failure {
                Failure::BadInput(error) => (EXIT_BAD_INPUT, error),
                Failure::Service(error) => (EXIT_FAILURE, error),
            };
            // If stderr itself is gone there is no one left to tell.
            let _ = writeln!(io::stderr(), "error: {}", client::error_chain(error.as_ref()));
            ExitCode::from(code)
        }
    }
}

fn run(args: &Args) -> Result<(), Failure> {
    let file = args.puzzle.as_deref().filter(|path| *path != Path::new("-"));
    let input = read_puzzle(file).map_err(Failure::BadInput)?;
    let board = npuzzle::text::parse_board(&input).map_err(|error| {
        Failure::BadInput(match file {
            Some(path) => anyhow::anyhow!("{}: {error}", path.display()),
            None => error.into(),
        })
    })?;
    let databases = match args.server.addr {
        None => vec![embedded_databases(&args.server, &args.search, board.dimension())],
        Some(_) => Vec::new(),
    };
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime").map_err(Failure::Service)?;
    let answer = runtime.block_on(ask(args, &board, databases));
    // An in-process server may still be winding a search down; the process is done, so don't wait.
    runtime.shutdown_background();
    let output = match answer.map_err(|error| service_failure(error, args))? {
        Answer::Hint(hint) if args.json => hint_json(&hint).map_err(Into::into),
        Answer::Hint(hint) => Ok(hint_text(&hint)),
        Answer::Solution(solution) if args.json => solution_json(&solution).map_err(Into::into),
        Answer::Solution(solution) => answer_text(&solution, &board, args),
    };
    let output = output.context("the server's answer cannot be shown").map_err(Failure::Service)?;
    write_stdout(&output).map_err(Failure::Service)
}

/// A failed call as the command line says it: a status with the service's error details in
/// flag words, anything else as it is.
fn service_failure(error: ClientError, args: &Args) -> Failure {
    if let ClientError::Status(status) = &error
        && let Some(line) = client::advice::status_in_flags(status, args.search.time_limit)
    {
        return Failure::Service(anyhow::anyhow!(line));
    }
    Failure::Service(error.into())
}

/// The spec's text for an optimal answer with its boards; otherwise the header that says what
/// is proven, then the boards or (with `--moves`, or when the server left the boards out) the
/// blank's moves, or (with `--tile-moves`) the tiles' moves from `board`.
fn answer_text(solution: &proto::Solution, board: &Board, args: &Args) -> anyhow::Result<String> {
    let moves = u32::try_from(solution.moves).unwrap_or(0);
    let header = moves_header(moves, solution.optimal, solution.lower_bound);
    if solution.solvable() && args.tile_moves {
        return Ok(format!("{header}\n{}\n", tile_moves(board, &solution.blank_moves)?));
    }
    if !solution.solvable() || (!args.moves && !solution.boards.is_empty()) {
        let text = solution_text(solution)?;
        return Ok(match text.split_once('\n') {
            Some((_, boards)) if solution.solvable() && !solution.optimal => format!("{header}\n{boards}"),
            _ => text,
        });
    }
    if !args.moves {
        let _ = writeln!(
            io::stderr(),
            "note: the {} moves are too many to print as boards (the server lists at most 4,194,304 tiles); \
             printing the blank's moves instead",
            solution.moves
        );
    }
    Ok(format!("{header}\n{}\n", solution.blank_moves))
}

/// The puzzle's text: from `file`, or from stdin when there is none.
fn read_puzzle(file: Option<&Path>) -> anyhow::Result<String> {
    match file {
        Some(path) => std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display())),
        None => read_stdin(),
    }
}

fn read_stdin() -> anyhow::Result<String> {
    let mut stdin = io::stdin();
    if stdin.is_terminal() {
        let _ = writeln!(io::stderr(), "reading a puzzle from stdin (N, then N*N tiles; end with Ctrl-D)");
    }
    io::read_to_string(&mut stdin).context("cannot read the puzzle from stdin")
}

/// Writes the answer; a reader that went away (`| head`) is not an error.
fn write_stdout(output: &str) -> anyhow::Result<()> {
    let mut stdout = io::stdout().lock();
    match stdout.write_all(output.as_bytes()).and_then(|()| stdout.flush()) {
        Err(error) if error.kind() != io::ErrorKind::BrokenPipe => Err(error).context("cannot write to stdout"),
        _ => Ok(()),
    }
}

/// The pattern databases an in-process server gets for boards of side `dimension`: none unless
/// the search can use them (a 4×4 or 5×5 board, IDA* or the automatic choice); for 4×4, the
/// partition asked for, else 7-8 when its file is already cached, else 6-6-3 (loaded, or built
/// once in seconds); for 5×5, the catalogue of four 6-6-6-6 partitions if it is cached, else
/// its first half. Loaded before solving, so the search uses them from its first node. If they
/// cannot be had, the boards are still solved, with linear conflict, after a note.
fn embedded_databases(server: &ServerFlags, search: &SearchFlags, dimension: usize) -> DatabaseSlot {
    let slot = DatabaseSlot::new();
    let wanted = wants_pattern_databases(dimension, search.algorithm, search.heuristic);
    if server.no_pattern_db || !wanted {
        return slot;
    }
    let loaded = match dimension {
        4 => load_embedded_databases(server),
        // The catalogue's first half, if a server built only that before.
        _ => load_cached_databases(server, &Partition::catalogue_of_four())
            .or_else(|error| load_cached_databases(server, &Partition::catalogue_of_two()).map_err(|_| error)),
    };
    match loaded {
        Ok(databases) => slot.fill(databases),
        Err(error) => {
            let _ = writeln!(
                io::stderr(),
                "note: solving {dimension}×{dimension} boards without pattern databases: {}",
                client::error_chain(error.as_ref())
            );
        }
    }
    slot
}

/// The tables of `partition` if a server or `npuzzle-bench` has already built them into the
/// cache: the client never spends minutes building them.
fn load_cached_databases(server: &ServerFlags, partition: &Partition) -> anyhow::Result<Arc<PatternDatabases>> {
    let path = cache_dir(server.cache_dir.as_deref())?.join(file_name(partition));
    let databases = PatternDatabases::load(&path, partition).with_context(|| {
        format!("the {} tables are built once, in minutes, by npuzzle-server or npuzzle-bench", partition.sizes())
    })?;
    Ok(Arc::new(databases))
}

fn load_embedded_databases(server: &ServerFlags) -> anyhow::Result<Arc<PatternDatabases>> {
    let dir = cache_dir(server.cache_dir.as_deref())?;
    let announce = |partition: &Partition| {
        let _ = writeln!(
            io::stderr(),
            "note: building the {} pattern databases into {} (once)",
            partition.sizes(),
            dir.display()
        );
    };
    Ok(client::embedded::pattern_databases(&dir, server.pattern_db.as_ref(), announce)?)
}

/// Connects to `--addr`, or starts the in-process server with `databases`, where a call waits
/// as long as it takes for a search slot (a batch sends more calls than there are slots), and
/// gives its calls the `--timeout` deadline.
async fn connect(server: &ServerFlags, databases: Vec<DatabaseSlot>) -> Result<Client, ClientError> {
    let client = match &server.addr {
        Some(endpoint) => Client::connect_with(endpoint.clone(), server.credentials()?).await?,
        None => {
            let limits = Limits { queue_timeout: EMBEDDED_QUEUE_TIMEOUT, ..Limits::default() };
            Client::embedded(server::Config { pattern_databases: databases, limits, ..server::Config::default() })
                .await?
        }
    };
    Ok(client.with_deadline(server.timeout))
}

/// What the server answered: a solution, or with `--hint` a hint.
enum Answer {
    Solution(proto::Solution),
    Hint(proto::HintResponse),
}

/// Connects (or starts the in-process server) and asks for what the flags want.
async fn ask(args: &Args, board: &Board, databases: Vec<DatabaseSlot>) -> Result<Answer, ClientError> {
    let client = connect(&args.server, databases).await?;
    if args.hint {
        return Ok(Answer::Hint(client.hint(board, args.search.time_limit).await?));
    }
    let options = args.search.options();
    let solution = if args.stream {
        let display = ProgressDisplay::new();
        client.solve_stream(board, options, |event| display.show(event)).await
    } else {
        client.solve(board, options).await
    }?;
    Ok(Answer::Solution(solution))
}

/// `npuzzle-client batch`: the input read and checked whole (exit 2 on a bad line), then every
/// board not yet in `--out` labelled, and the summary on stderr; exit 1 when a board failed
/// without `--keep-going`, or an answer disagrees with a known length.
fn batch(flags: &BatchFlags) -> Result<(), Failure> {
    let items = client::batch::read_input(&flags.input).map_err(|error| Failure::BadInput(error.into()))?;
    let databases = match flags.server.addr {
        None => {
            let mut dimensions: Vec<usize> = items.iter().map(|item| item.board.dimension()).collect();
            dimensions.sort_unstable();
            dimensions.dedup();
            dimensions
                .into_iter()
                .map(|dimension| embedded_databases(&flags.server, &flags.search, dimension))
                .collect()
        }
        Some(_) => Vec::new(),
    };
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime").map_err(Failure::Service)?;
    let started = Instant::now();
    let mut summary = client::batch::Summary::default();
    let outcome = runtime.block_on(async {
        let client = connect(&flags.server, databases).await?;
        client::batch::run(&client, items, flags, &mut summary).await.map_err(anyhow::Error::from)
    });
    runtime.shutdown_background();
    let _ = write!(io::stderr(), "{}", summary.report(started.elapsed()));
    outcome.map_err(Failure::Service)?;
    match summary.disagreements.len() {
        0 => Ok(()),
        count => Err(Failure::Service(anyhow::anyhow!("{count} answers disagree with the input's known lengths"))),
    }
}

/// Live progress on stderr, drawn only when stderr is a terminal: a log or a pipe gets nothing.
struct ProgressDisplay(Option<ProgressBar>);

impl ProgressDisplay {
    fn new() -> ProgressDisplay {
        if !io::stderr().is_terminal() {
            return ProgressDisplay(None);
        }
        let bar = ProgressBar::new_spinner();
        if let Ok(style) = ProgressStyle::with_template("{spinner} {msg}") {
            bar.set_style(style);
        }
        bar.set_message("waiting for the server");
        bar.enable_steady_tick(Duration::from_millis(100));
        ProgressDisplay(Some(bar))
    }

    fn show(&self, event: StreamEvent<'_>) {
        let (Some(bar), StreamEvent::Progress(progress)) = (&self.0, event) else { return };
        bar.set_message(progress_line(progress));
    }
}

/// A Progress in one line: the best known and the gap, the nodes, the bound, the frontier and
/// the time, then the proof's forecast and the replicas searching, when the server sends them.
fn progress_line(progress: &proto::Progress) -> String {
    let mut line = format!(
        "{}{} nodes expanded, priority {}, frontier {}, {:.1}s",
        best_and_gap(progress.best_moves, progress.priority),
        HumanCount(progress.nodes_expanded),
        progress.priority,
        HumanCount(progress.frontier_size),
        Duration::from_micros(progress.elapsed_micros).as_secs_f64(),
    );
    if progress.proof_forecast_ms > 0 {
        line.push_str(&format!(", proof needs {}", roughly(Duration::from_millis(progress.proof_forecast_ms))));
    }
    if progress.replicas > 1 {
        line.push_str(&format!(", on {} replicas", progress.replicas));
    }
    line
}

/// `best 93 ≥ 89, gap 4.5 %, ` once a solution is known (the gap is the part of the best
/// length not yet proven needed), else nothing.
fn best_and_gap(best: u32, bound: u32) -> String {
    if best == 0 {
        return String::new();
    }
    let gap = 100.0 * f64::from(best.saturating_sub(bound)) / f64::from(best);
    format!("best {best} ≥ {bound}, gap {gap:.1} %, ")
}

impl Drop for ProgressDisplay {
    fn drop(&mut self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_line_tells_the_forecast_and_the_replicas_only_when_sent() {
        let mut progress =
            proto::Progress { nodes_expanded: 12_345, priority: 52, elapsed_micros: 2_500_000, ..Default::default() };
        let alone = progress_line(&progress);
        assert_eq!(alone, "12,345 nodes expanded, priority 52, frontier 0, 2.5s");
        progress.proof_forecast_ms = 90_000;
        progress.replicas = 3;
        assert_eq!(progress_line(&progress), format!("{alone}, proof needs about a minute, on 3 replicas"));
        progress.replicas = 1;
        assert!(!progress_line(&progress).contains("replicas"), "one replica is the search alone");
    }
}
