//! `npuzzle-client`: reads a puzzle in the spec's format on stdin, solves it over gRPC, and
//! prints what the spec's `main()` prints (or, with `--json`, the Solution as JSON).
//!
//! With `--optimality bounded|fast` an answer not proven minimal is headed `Number of moves = K
//! (not proven minimal; the minimum is at least L)` instead. `--moves` prints the blank's moves
//! (one letter each, U D L R) on one line instead of the boards; so does an answer whose boards
//! the server left out (more than 4,194,304 tiles in all, see `Solution.boards`), with a note on
//! stderr. Answers of up to 256 MiB are accepted, so a 128×128 answer arrives whole.
//!
//! An `https://` address is spoken to over TLS (`--tls-ca`, `--tls-cert`/`--tls-key` for mTLS,
//! `--tls-server-name`); `--auth-token-file` or `NPUZZLE_TOKEN` gives the access token, which
//! is never sent in plaintext to a host other than loopback.
//!
//! With neither `--addr` nor `NPUZZLE_ADDR` it starts the library's own server in-process on
//! 127.0.0.1:0 and talks real gRPC to it, so `npuzzle-client < puzzle.txt` works alone.
//!
//! Exit codes: 0 for an answer (also "No solution possible") and for a closed stdout; 1 when the
//! server or the connection fails; 2 when the input is not a puzzle, found before any connection.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use clap::Parser;
use indicatif::{HumanCount, ProgressBar, ProgressStyle};
use npuzzle::client::{
    self, AccessToken, Client, Credentials, SolveOptions, StreamEvent, TlsFlags, solution_json, solution_text,
};
use npuzzle::service::DatabaseSlot;
use npuzzle::solver::pdb::cache::file_name;
use npuzzle::solver::{Optimality, Partition, PatternDatabases, cache_dir, wants_pattern_databases};
use npuzzle::text::moves_header;
use npuzzle::{Algorithm, Board, Heuristic, proto, server};
use tonic::transport::Endpoint;

/// Exit code for an input that is not a puzzle (or a command line that is wrong, as clap does).
const EXIT_BAD_INPUT: u8 = 2;
/// Exit code for a failure of the server or the connection.
const EXIT_FAILURE: u8 = 1;

/// Solves a sliding-tile puzzle read from stdin in the fewest moves, through an npuzzle server.
#[derive(Debug, Parser)]
#[command(
    version,
    after_help = "Exit codes: 0 an answer (also \"No solution possible\"), 1 a server or connection error, \
                  2 input that is not a puzzle (checked before connecting) or a bad command line."
)]
struct Args {
    /// The server, e.g. http://127.0.0.1:50051 (`http://` may be left out). Without it, a server
    /// is started inside this process.
    #[arg(long, env = "NPUZZLE_ADDR", value_name = "URL", value_parser = client::parse_address)]
    addr: Option<Endpoint>,
    /// Use SolveStream and show live progress on stderr (when stderr is a terminal).
    #[arg(long)]
    stream: bool,
    /// The search algorithm; auto lets the server pick the fastest optimal one.
    #[arg(long, value_enum, default_value_t = Algorithm::Auto)]
    algorithm: Algorithm,
    /// The heuristic; auto lets the server pick the strongest for the algorithm.
    #[arg(long, value_enum, default_value_t = Heuristic::Auto)]
    heuristic: Heuristic,
    /// How short the answer must be: minimum (proven), bounded (at most --weight times the
    /// minimum), fast (any valid solution, every size) or anytime (the shortest found by
    /// --time-limit, optimal if proven by then, else with a proven lower bound).
    #[arg(long, value_enum, default_value_t = Optimality::Minimum)]
    optimality: Optimality,
    /// For --optimality bounded: the answer is at most this many times the minimum (above 1).
    #[arg(long, value_name = "W")]
    weight: Option<f64>,
    /// The search's time limit (`20s`, `1m`, `500ms`; never above the server's): when anytime
    /// answers, and where the other modes give up [default: the server's own limit; for
    /// anytime, a margin before --timeout when it is set].
    #[arg(long, value_name = "DURATION", value_parser = humantime::parse_duration)]
    time_limit: Option<Duration>,
    /// Print the blank's moves (U D L R) on one line instead of the boards.
    #[arg(long, conflicts_with = "json")]
    moves: bool,
    /// Give up after expanding this many nodes (the server's cap still applies).
    #[arg(long, value_name = "N")]
    max_expanded_nodes: Option<u64>,
    /// The gRPC deadline in seconds; the search stops when it passes.
    #[arg(long, value_name = "SECS", value_parser = parse_timeout)]
    timeout: Option<Duration>,
    /// Print the Solution as JSON (the canonical protobuf JSON mapping) instead of the spec's text.
    #[arg(long)]
    json: bool,
    /// For the in-process server and a 4×4 board: the pattern databases to load, 7-8 or 6-6-3
    /// [default: 7-8 if already cached, else 6-6-3, built the first time in seconds].
    #[arg(long, value_name = "PARTITION", conflicts_with = "no_pattern_db")]
    pattern_db: Option<Partition>,
    /// For the in-process server: no pattern databases (4×4 boards use linear conflict).
    #[arg(long)]
    no_pattern_db: bool,
    /// Where the pattern databases are cached [default: $NPUZZLE_CACHE_DIR, else
    /// $XDG_CACHE_HOME/npuzzle, else ~/.cache/npuzzle].
    #[arg(long, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
    #[command(flatten)]
    tls: TlsFlags,
    /// A file whose first line is the access token to send (or set NPUZZLE_TOKEN).
    #[arg(long, value_name = "FILE")]
    auth_token_file: Option<PathBuf>,
}

fn parse_timeout(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text.parse().map_err(|_| format!("{text:?} is not a number of seconds"))?;
    match Duration::try_from_secs_f64(seconds) {
        Ok(duration) if !duration.is_zero() => Ok(duration),
        _ => Err(format!("{text:?} is not a positive number of seconds")),
    }
}

/// How a run ended badly, and so which exit code it gets.
enum Failure {
    BadInput(anyhow::Error),
    Service(anyhow::Error),
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            let (code, error) = match failure {
                Failure::BadInput(error) => (EXIT_BAD_INPUT, error),
                Failure::Service(error) => (EXIT_FAILURE, error),
            };
            // If stderr itself is gone there is no one left to tell.
            let _ = writeln!(io::stderr(), "error: {error:#}");
            ExitCode::from(code)
        }
    }
}

fn run(args: &Args) -> Result<(), Failure> {
    let input = read_stdin().map_err(Failure::BadInput)?;
    let board = npuzzle::text::parse_board(&input).map_err(|error| Failure::BadInput(error.into()))?;
    let databases = match args.addr {
        None => embedded_databases(args, &board),
        Some(_) => DatabaseSlot::new(),
    };
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime").map_err(Failure::Service)?;
    let solution = runtime.block_on(solve(args, &board, databases));
    // An in-process server may still be winding a search down; the process is done, so don't wait.
    runtime.shutdown_background();
    let solution = solution.map_err(|error| Failure::Service(error.into()))?;
    let output = if args.json { solution_json(&solution).map_err(Into::into) } else { answer_text(&solution, args) };
    let output = output.context("the server's answer cannot be shown").map_err(Failure::Service)?;
    write_stdout(&output).map_err(Failure::Service)
}

/// The spec's text for an optimal answer with its boards; otherwise the header that says what
/// is proven, then the boards or (with `--moves`, or when the server left the boards out) the
/// blank's moves.
fn answer_text(solution: &proto::Solution, args: &Args) -> anyhow::Result<String> {
    let moves = u32::try_from(solution.moves).unwrap_or(0);
    let header = moves_header(moves, solution.optimal, solution.lower_bound);
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

/// The pattern databases an in-process server gets: none unless the search can use them (a 4×4
/// or 5×5 board, IDA* or the automatic choice); for 4×4, the partition asked for, else 7-8 when
/// its file is already cached, else 6-6-3 (loaded, or built once in seconds); for 5×5, the
/// catalogue of four 6-6-6-6 partitions if it is cached, else its first half. Loaded before
/// solving, so the search uses them from its first node. If they cannot be had, the board is
/// still solved, with linear conflict, after a note.
fn embedded_databases(args: &Args, board: &Board) -> DatabaseSlot {
    let slot = DatabaseSlot::new();
    let wanted = wants_pattern_databases(board.dimension(), args.algorithm, args.heuristic);
    if args.no_pattern_db || !wanted {
        return slot;
    }
    let loaded = match board.dimension() {
        4 => load_embedded_databases(args),
        // The catalogue's first half, if a server built only that before.
        _ => load_cached_databases(args, &Partition::catalogue_of_four())
            .or_else(|error| load_cached_databases(args, &Partition::catalogue_of_two()).map_err(|_| error)),
    };
    match loaded {
        Ok(databases) => slot.fill(databases),
        Err(error) => {
            let _ = writeln!(io::stderr(), "note: solving without pattern databases: {error:#}");
        }
    }
    slot
}

/// The tables of `partition` if a server or `npuzzle-bench` has already built them into the
/// cache: the client never spends minutes building them for one board.
fn load_cached_databases(args: &Args, partition: &Partition) -> anyhow::Result<Arc<PatternDatabases>> {
    let path = cache_dir(args.cache_dir.as_deref())?.join(file_name(partition));
    let databases = PatternDatabases::load(&path, partition).with_context(|| {
        format!("the {} tables are built once, in minutes, by npuzzle-server or npuzzle-bench", partition.sizes())
    })?;
    Ok(Arc::new(databases))
}

fn load_embedded_databases(args: &Args) -> anyhow::Result<Arc<PatternDatabases>> {
    let dir = cache_dir(args.cache_dir.as_deref())?;
    let announce = |partition: &Partition| {
        let _ = writeln!(
            io::stderr(),
            "note: building the {} pattern databases into {} (once)",
            partition.sizes(),
            dir.display()
        );
    };
    Ok(client::embedded::pattern_databases(&dir, args.pattern_db.as_ref(), announce)?)
}

async fn solve(args: &Args, board: &Board, databases: DatabaseSlot) -> Result<proto::Solution, client::ClientError> {
    let client = match &args.addr {
        Some(endpoint) => {
            let credentials = credentials(args)?;
            Client::connect_with(endpoint.clone(), credentials).await?
        }
        None => {
            Client::embedded(server::Config { pattern_databases: vec![databases], ..server::Config::default() }).await?
        }
    }
    .with_deadline(args.timeout);
    let options = SolveOptions {
        algorithm: args.algorithm,
        heuristic: args.heuristic,
        max_expanded_nodes: args.max_expanded_nodes,
        optimality: args.optimality,
        weight: args.weight,
        time_limit: args.time_limit,
    };
    if args.stream {
        let display = ProgressDisplay::new();
        client.solve_stream(board, options, |event| display.show(event)).await
    } else {
        client.solve(board, options).await
    }
}

/// The TLS files and the token the flags (or `NPUZZLE_TOKEN`) name, read.
fn credentials(args: &Args) -> Result<Credentials, client::ClientError> {
    let token = match &args.auth_token_file {
        Some(path) => {
            Some(String::from_utf8_lossy(&client::read_file(path)?).lines().next().unwrap_or_default().to_owned())
        }
        None => std::env::var("NPUZZLE_TOKEN").ok(),
    };
    let token = token.map(|token| AccessToken::new(&token)).transpose()?;
    Ok(Credentials { tls: args.tls.read()?, token })
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
        bar.set_message(format!(
            "{}{} nodes expanded, priority {}, frontier {}, {:.1}s",
            best_and_gap(progress.best_moves, progress.priority),
            HumanCount(progress.nodes_expanded),
            progress.priority,
            HumanCount(progress.frontier_size),
            Duration::from_micros(progress.elapsed_micros).as_secs_f64(),
        ));
    }
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
