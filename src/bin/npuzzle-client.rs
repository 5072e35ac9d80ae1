//! `npuzzle-client`: reads a puzzle in the spec's format on stdin, solves it over gRPC, and
//! prints what the spec's `main()` prints (or, with `--json`, the Solution as JSON).
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
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow};
use clap::{Parser, ValueEnum};
use indicatif::{HumanCount, ProgressBar, ProgressStyle};
use npuzzle::client::{code_name, solution_json, solution_text};
use npuzzle::proto::solver_service_client::SolverServiceClient;
use npuzzle::proto::{self, solve_request, solve_stream_request, solve_stream_response};
use npuzzle::server;
use npuzzle::solver::pdb::cache::file_name;
use npuzzle::solver::{DatabaseSlot, Partition, PatternDatabases, default_cache_dir, wants_pattern_databases};
use npuzzle::{Algorithm, Board, Heuristic};
use tonic::transport::{Channel, Endpoint};
use tonic::{Code, Request, Status};

/// Exit code for an input that is not a puzzle (or a command line that is wrong, as clap does).
const EXIT_BAD_INPUT: u8 = 2;
/// Exit code for a failure of the server or the connection.
const EXIT_FAILURE: u8 = 1;
/// How long to wait for a TCP connection before calling the server unreachable.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// The largest answer accepted: a long solution of a big board is many boards of N*N tiles.
const MAX_RESPONSE_BYTES: usize = 256 * 1024 * 1024;

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
    #[arg(long, env = "NPUZZLE_ADDR", value_name = "URL", value_parser = parse_endpoint)]
    addr: Option<Endpoint>,
    /// Use SolveStream and show live progress on stderr (when stderr is a terminal).
    #[arg(long)]
    stream: bool,
    /// The search algorithm; auto lets the server pick the fastest optimal one.
    #[arg(long, value_enum, default_value_t = AlgorithmArg::Auto)]
    algorithm: AlgorithmArg,
    /// The heuristic; auto lets the server pick the strongest for the algorithm.
    #[arg(long, value_enum, default_value_t = HeuristicArg::Auto)]
    heuristic: HeuristicArg,
    /// Give up after expanding this many nodes (the server's cap still applies).
    #[arg(long, value_name = "N")]
    max_expanded_nodes: Option<u64>,
    /// The gRPC deadline in seconds; the search stops when it passes.
    #[arg(long, value_name = "SECS", value_parser = parse_timeout)]
    timeout: Option<Timeout>,
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
}

/// `--algorithm`, as the command line spells it.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum AlgorithmArg {
    Auto,
    Astar,
    Idastar,
}

/// `--heuristic`, as the command line spells it.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum HeuristicArg {
    Auto,
    Hamming,
    Manhattan,
    LinearConflict,
    PatternDatabase,
}

impl From<AlgorithmArg> for Algorithm {
    fn from(arg: AlgorithmArg) -> Algorithm {
        match arg {
            AlgorithmArg::Auto => Algorithm::Auto,
            AlgorithmArg::Astar => Algorithm::AStar,
            AlgorithmArg::Idastar => Algorithm::IdaStar,
        }
    }
}

impl From<HeuristicArg> for Heuristic {
    fn from(arg: HeuristicArg) -> Heuristic {
        match arg {
            HeuristicArg::Auto => Heuristic::Auto,
            HeuristicArg::Hamming => Heuristic::Hamming,
            HeuristicArg::Manhattan => Heuristic::Manhattan,
            HeuristicArg::LinearConflict => Heuristic::LinearConflict,
            HeuristicArg::PatternDatabase => Heuristic::PatternDatabase,
        }
    }
}

/// `--timeout`: the duration, and the text the user gave, so the error message repeats it.
#[derive(Debug, Clone)]
struct Timeout {
    duration: Duration,
    given: String,
}

fn parse_timeout(text: &str) -> Result<Timeout, String> {
    let seconds: f64 = text.parse().map_err(|_| format!("{text:?} is not a number of seconds"))?;
    match Duration::try_from_secs_f64(seconds) {
        Ok(duration) if !duration.is_zero() => Ok(Timeout { duration, given: text.to_string() }),
        _ => Err(format!("{text:?} is not a positive number of seconds")),
    }
}

fn parse_endpoint(text: &str) -> Result<Endpoint, String> {
    let url = if text.contains("://") { text.to_string() } else { format!("http://{text}") };
    Endpoint::from_shared(url).map_err(|error| format!("{text:?} is not a URL: {error}"))
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
    let solution = runtime.block_on(solve(args, proto::Board::from(&board), databases));
    // An in-process server may still be winding a search down; the process is done, so don't wait.
    runtime.shutdown_background();
    let solution = solution.map_err(Failure::Service)?;
    let output = if args.json { solution_json(&solution) } else { solution_text(&solution) };
    let output = output.context("the server's answer cannot be shown").map_err(Failure::Service)?;
    write_stdout(&output).map_err(Failure::Service)
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
/// 6-6-6-6 tables if they are cached. Loaded before solving, so the search uses them from its first node. If
/// they cannot be had, the board is still solved, with linear conflict, after a note.
fn embedded_databases(args: &Args, board: &Board) -> DatabaseSlot {
    let slot = DatabaseSlot::new();
    let wanted = wants_pattern_databases(board.dimension(), args.algorithm.into(), args.heuristic.into());
    if args.no_pattern_db || !wanted {
        return slot;
    }
    let loaded = match board.dimension() {
        4 => load_embedded_databases(args),
        _ => load_cached_databases(args, &Partition::six_six_six_six()),
    };
    match loaded {
        Ok(databases) => slot.fill(databases),
        Err(error) => {
            let _ = writeln!(io::stderr(), "note: solving without pattern databases: {error:#}");
        }
    }
    slot
}

/// The cache directory the flags name, else the default one.
fn cache_dir(args: &Args) -> anyhow::Result<PathBuf> {
    match &args.cache_dir {
        Some(dir) => Ok(dir.clone()),
        None => Ok(default_cache_dir()?),
    }
}

/// The tables of `partition` if a server or `npuzzle-bench` has already built them into the
/// cache: the client never spends minutes building them for one board.
fn load_cached_databases(args: &Args, partition: &Partition) -> anyhow::Result<Arc<PatternDatabases>> {
    let path = cache_dir(args)?.join(file_name(partition));
    let databases = PatternDatabases::load(&path, partition).with_context(|| {
        format!("the {} tables are built once, in minutes, by npuzzle-server or npuzzle-bench", partition.sizes())
    })?;
    Ok(Arc::new(databases))
}

fn load_embedded_databases(args: &Args) -> anyhow::Result<Arc<PatternDatabases>> {
    let dir = cache_dir(args)?;
    let strongest = Partition::seven_eight();
    if args.pattern_db.is_none()
        && let Ok(databases) = PatternDatabases::load(&dir.join(file_name(&strongest)), &strongest)
    {
        return Ok(Arc::new(databases));
    }
    let partition = args.pattern_db.clone().unwrap_or_else(Partition::six_six_three);
    if !dir.join(file_name(&partition)).is_file() {
        let _ = writeln!(
            io::stderr(),
            "note: building the {} pattern databases into {} (once)",
            partition.sizes(),
            dir.display()
        );
    }
    Ok(PatternDatabases::load_or_build_partition(&dir, &partition)?)
}

async fn solve(args: &Args, board: proto::Board, databases: DatabaseSlot) -> anyhow::Result<proto::Solution> {
    let endpoint = match &args.addr {
        Some(endpoint) => endpoint.clone(),
        None => start_embedded_server(databases).await?,
    };
    let uri = endpoint.uri().clone();
    let channel = endpoint
        .connect_timeout(CONNECT_TIMEOUT)
        .connect()
        .await
        .with_context(|| format!("cannot connect to {uri}"))?;
    let client = SolverServiceClient::new(channel).max_decoding_message_size(MAX_RESPONSE_BYTES);
    let started = Instant::now();
    let options = proto::SolveOptions {
        algorithm: proto::Algorithm::from(Algorithm::from(args.algorithm)).into(),
        heuristic: proto::Heuristic::from(Heuristic::from(args.heuristic)).into(),
        max_expanded_nodes: args.max_expanded_nodes.unwrap_or(0),
    };
    let timeout = args.timeout.as_ref();
    let call = async {
        if args.stream {
            solve_streaming(client, board, options, timeout).await
        } else {
            solve_unary(client, board, options, timeout).await
        }
    };
    let result = match &args.timeout {
        // The server stops at the deadline it is sent; the local timer covers a server that does not.
        Some(timeout) => tokio::time::timeout(timeout.duration, call)
            .await
            .unwrap_or_else(|_| Err(Status::deadline_exceeded("the deadline passed"))),
        None => call.await,
    };
    result.map_err(|status| match &args.timeout {
        // tonic's own deadline check on the server answers CANCELLED; past the deadline it means the same.
        Some(timeout)
            if status.code() == Code::DeadlineExceeded
                || (status.code() == Code::Cancelled && started.elapsed() >= timeout.duration) =>
        {
            anyhow!("deadline exceeded after {}s", timeout.given)
        }
        _ => anyhow!("{}: {}", code_name(status.code()), status.message()),
    })
}

/// Starts the library's server on 127.0.0.1:0 for the life of this process, and says where it is.
async fn start_embedded_server(pattern_databases: DatabaseSlot) -> anyhow::Result<Endpoint> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.context("cannot start the in-process server")?;
    let address = listener.local_addr().context("cannot start the in-process server")?;
    tokio::spawn(async move {
        if let Err(error) = server::run(
            listener,
            std::future::pending(),
            server::Config { pattern_databases, ..server::Config::default() },
        )
        .await
        {
            let _ = writeln!(io::stderr(), "error: the in-process server stopped: {error}");
        }
    });
    Ok(Endpoint::from_shared(format!("http://{address}"))?)
}

async fn solve_unary(
    mut client: SolverServiceClient<Channel>,
    board: proto::Board,
    options: proto::SolveOptions,
    timeout: Option<&Timeout>,
) -> Result<proto::Solution, Status> {
    let request = proto::SolveRequest { puzzle: Some(solve_request::Puzzle::Board(board)), options: Some(options) };
    let response = client.solve(request_with_deadline(request, timeout)).await?;
    response.into_inner().solution.ok_or_else(|| Status::internal("the answer carries no solution"))
}

/// SolveStream: progress to the display as it comes, and the Solution, which is the last message.
async fn solve_streaming(
    mut client: SolverServiceClient<Channel>,
    board: proto::Board,
    options: proto::SolveOptions,
    timeout: Option<&Timeout>,
) -> Result<proto::Solution, Status> {
    let request = proto::SolveStreamRequest {
        puzzle: Some(solve_stream_request::Puzzle::Board(board)),
        options: Some(options),
        // The server's own default.
        progress_interval_ms: 0,
    };
    let mut stream = client.solve_stream(request_with_deadline(request, timeout)).await?.into_inner();
    let display = ProgressDisplay::new();
    while let Some(message) = stream.message().await? {
        match message.event {
            Some(solve_stream_response::Event::Progress(progress)) => display.show(&progress),
            Some(solve_stream_response::Event::Solution(solution)) => return Ok(solution),
            None => {}
        }
    }
    Err(Status::internal("the stream ended without a solution"))
}

/// A request that tells the server its deadline (`grpc-timeout`), so the search stops there.
fn request_with_deadline<T>(message: T, timeout: Option<&Timeout>) -> Request<T> {
    let mut request = Request::new(message);
    if let Some(timeout) = timeout {
        request.set_timeout(timeout.duration);
    }
    request
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

    fn show(&self, progress: &proto::Progress) {
        if let Some(bar) = &self.0 {
            bar.set_message(format!(
                "{} nodes expanded, priority {}, frontier {}, {:.1}s",
                HumanCount(progress.nodes_expanded),
                progress.priority,
                HumanCount(progress.frontier_size),
                Duration::from_micros(progress.elapsed_micros).as_secs_f64(),
            ));
        }
    }
}

impl Drop for ProgressDisplay {
    fn drop(&mut self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
