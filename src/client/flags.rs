//! The one place the command line spells the library's choices: [`clap::ValueEnum`] for
//! [`Algorithm`], [`Heuristic`] and [`Optimality`], named by their `Display` (the same names
//! their `FromStr` takes), so `npuzzle-client` and `npuzzle-bench` take the library's types as
//! flags and list their possible values, with no enum of their own to keep in step.
//!
//! [`SearchFlags`] and [`ServerFlags`] are the flags one solve and a batch share, declared
//! once so both commands take and explain them the same way.
//!
//! It lives here rather than in `solver` because clap is a dependency of the service side only:
//! the search core builds without it.

use std::fmt::Display;
use std::path::PathBuf;
use std::sync::LazyLock;
use std::time::Duration;

use clap::ValueEnum;
use clap::builder::PossibleValue;
use clap::error::ErrorKind;
use tonic::transport::Endpoint;

use super::{AccessToken, ClientError, Credentials, SolveOptions, TlsFlags, read_file};
use crate::solver::{Algorithm, Heuristic, Optimality, Partition};

/// Every [`Algorithm`], in the order the help lists them.
const ALGORITHMS: [Algorithm; 3] = [Algorithm::Auto, Algorithm::AStar, Algorithm::IdaStar];

/// Every [`Heuristic`], in the order the help lists them.
const HEURISTICS: [Heuristic; 5] =
    [Heuristic::Auto, Heuristic::Hamming, Heuristic::Manhattan, Heuristic::LinearConflict, Heuristic::PatternDatabase];

/// Every [`Optimality`], in the order the help lists them.
const OPTIMALITIES: [Optimality; 4] = [Optimality::Minimum, Optimality::Bounded, Optimality::Fast, Optimality::Anytime];

/// The `Display` names of `all`, in its order, made once: clap's [`PossibleValue`] borrows its
/// name for `'static`.
fn names<T: Display>(all: &[T]) -> Vec<String> {
    all.iter().map(T::to_string).collect()
}

static ALGORITHM_NAMES: LazyLock<Vec<String>> = LazyLock::new(|| names(&ALGORITHMS));
static HEURISTIC_NAMES: LazyLock<Vec<String>> = LazyLock::new(|| names(&HEURISTICS));
static OPTIMALITY_NAMES: LazyLock<Vec<String>> = LazyLock::new(|| names(&OPTIMALITIES));

/// The command line's value for `value`: the name at its place in `all`.
fn possible_value<T: PartialEq>(value: &T, all: &[T], names: &'static [String]) -> Option<PossibleValue> {
    let index = all.iter().position(|candidate| candidate == value)?;
    Some(PossibleValue::new(names[index].as_str()))
}

impl ValueEnum for Algorithm {
    fn value_variants<'a>() -> &'a [Algorithm] {
        &ALGORITHMS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        possible_value(self, &ALGORITHMS, &ALGORITHM_NAMES)
    }
}

impl ValueEnum for Heuristic {
    fn value_variants<'a>() -> &'a [Heuristic] {
        &HEURISTICS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        possible_value(self, &HEURISTICS, &HEURISTIC_NAMES)
    }
}

impl ValueEnum for Optimality {
    fn value_variants<'a>() -> &'a [Optimality] {
        &OPTIMALITIES
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        possible_value(self, &OPTIMALITIES, &OPTIMALITY_NAMES)
    }
}

/// The flags that say what each search must find and how far it may go, the same for one
/// board (`npuzzle-client FILE`) and for a batch (`npuzzle-client batch`):
/// [`SearchFlags::options`] turns them into the [`SolveOptions`] of every call.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SearchFlags {
    /// The search algorithm; auto lets the server pick the fastest optimal one.
    #[arg(long, value_enum, default_value_t = Algorithm::Auto)]
    pub algorithm: Algorithm,
    /// The heuristic; auto lets the server pick the strongest for the algorithm.
    #[arg(long, value_enum, default_value_t = Heuristic::Auto)]
    pub heuristic: Heuristic,
    /// How short the answer must be: minimum (proven), bounded (at most --weight times the
    /// minimum), fast (any valid solution, every size) or anytime (the shortest found by
    /// --time-limit, optimal if proven by then, else with a proven lower bound) [default:
    /// minimum, or bounded with --weight].
    #[arg(long, value_enum)]
    pub optimality: Option<Optimality>,
    /// The answer is at most this many times the minimum (above 1, e.g. 1.5): --optimality
    /// bounded, which it implies and which requires it.
    #[arg(long, value_name = "W", value_parser = parse_weight)]
    pub weight: Option<f64>,
    /// The search's time limit (`20s`, `1m`, `500ms`; never above the server's): when anytime
    /// answers, and where the other modes give up [default: the server's own limit; for
    /// anytime, a margin before --timeout when it is set].
    #[arg(long, value_name = "DURATION", value_parser = humantime::parse_duration)]
    pub time_limit: Option<Duration>,
    /// Give up after expanding this many nodes (the server's cap still applies).
    #[arg(long, value_name = "N")]
    pub max_expanded_nodes: Option<u64>,
}

/// A `--weight` value: a finite number above 1.
fn parse_weight(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(weight) if weight.is_finite() && weight > 1.0 => Ok(weight),
        _ => Err(format!("{text:?} is not a weight above 1 (1.1, 1.5, 2)")),
    }
}

impl SearchFlags {
    /// `--optimality bounded` needs `--weight`, and `--weight` goes with bounded alone: the
    /// kind of clap error and its message when they do not go together.
    pub fn check(&self) -> Result<(), (ErrorKind, String)> {
        match (self.optimality, self.weight) {
            (Some(Optimality::Bounded), None) => Err((
                ErrorKind::MissingRequiredArgument,
                "--optimality bounded requires --weight <W> (the answer is at most W times the minimum, e.g. 1.5)"
                    .to_owned(),
            )),
            (Some(optimality), Some(_)) if optimality != Optimality::Bounded => Err((
                ErrorKind::ArgumentConflict,
                format!(
                    "--weight cannot be used with --optimality {optimality}: it is for --optimality bounded \
                     (which --weight alone implies)"
                ),
            )),
            _ => Ok(()),
        }
    }

    /// The optimality asked for: `--optimality`, else bounded with `--weight`, else minimum.
    pub fn optimality(&self) -> Optimality {
        match (self.optimality, self.weight) {
            (Some(optimality), _) => optimality,
            (None, Some(_)) => Optimality::Bounded,
            (None, None) => Optimality::Minimum,
        }
    }

    /// What every call asks of the server's search.
    pub fn options(&self) -> SolveOptions {
        SolveOptions {
            algorithm: self.algorithm,
            heuristic: self.heuristic,
            max_expanded_nodes: self.max_expanded_nodes,
            optimality: self.optimality(),
            weight: self.weight,
            time_limit: self.time_limit,
        }
    }
}

/// The flags that say which server answers, the same for one board and for a batch: an
/// address with its credentials and deadline, or (without `--addr`) the tables of the server
/// started in this process.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ServerFlags {
    /// The server, e.g. http://127.0.0.1:50051 (`http://` may be left out). Without it, a server
    /// is started inside this process.
    #[arg(long, env = "NPUZZLE_ADDR", value_name = "URL", value_parser = super::parse_address)]
    pub addr: Option<Endpoint>,
    /// The gRPC deadline in seconds; the search stops when it passes.
    #[arg(long, value_name = "SECS", value_parser = parse_timeout)]
    pub timeout: Option<Duration>,
    /// For the in-process server and a 4×4 board: the pattern databases to load, 7-8 or 6-6-3
    /// [default: 7-8 if already cached, else 6-6-3, built the first time in seconds].
    #[arg(long, value_name = "PARTITION", conflicts_with = "no_pattern_db")]
    pub pattern_db: Option<Partition>,
    /// For the in-process server: no pattern databases (4×4 boards use linear conflict).
    #[arg(long)]
    pub no_pattern_db: bool,
    /// Where the pattern databases are cached [default: $NPUZZLE_CACHE_DIR, else
    /// $XDG_CACHE_HOME/npuzzle, else ~/.cache/npuzzle].
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// For an `https://` address: the certificates to trust and to show.
    #[command(flatten)]
    pub tls: TlsFlags,
    /// A file whose first line is the access token to send (or set NPUZZLE_TOKEN).
    #[arg(long, value_name = "FILE")]
    pub auth_token_file: Option<PathBuf>,
}

/// A `--timeout` value: a positive number of seconds.
fn parse_timeout(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text.parse().map_err(|_| format!("{text:?} is not a number of seconds"))?;
    match Duration::try_from_secs_f64(seconds) {
        Ok(duration) if !duration.is_zero() => Ok(duration),
        _ => Err(format!("{text:?} is not a positive number of seconds")),
    }
}

impl ServerFlags {
    /// The TLS files and the token the flags (or `NPUZZLE_TOKEN`) name, read.
    pub fn credentials(&self) -> Result<Credentials, ClientError> {
        let token = match &self.auth_token_file {
            Some(path) => {
                Some(String::from_utf8_lossy(&read_file(path)?).lines().next().unwrap_or_default().to_owned())
            }
            None => std::env::var("NPUZZLE_TOKEN").ok(),
        };
        let token = token.map(|token| AccessToken::new(&token)).transpose()?;
        Ok(Credentials { tls: self.tls.read()?, token })
    }
}
