//! The library's client of npuzzle servers: [`Client`] holds one connection and has one method
//! per call of the service, [`Client::solve`] (unary), [`Client::solve_stream`] (progress,
//! then the Solution) and [`Client::hint`] (the next best moves). It owns what every caller would otherwise repeat: the address with
//! `http://` optional, the connect timeout, the largest answer accepted, and the deadline, sent
//! to the server as `grpc-timeout` and kept by a local timer too, with a passed deadline always
//! reported as [`ClientError::DeadlineExceeded`] whatever status the server used for it.
//!
//! [`Client::connect_with`] adds [`tls::Credentials`]: TLS for `https://` addresses, mTLS, and
//! an access token every call carries.
//!
//! [`Client::embedded`] starts the library's own server in this process (see [`embedded`]) and
//! connects to it over TCP. [`output`] turns an answer into the spec's text or into JSON, and
//! [`advice`] an error status into the command line's words.

pub mod advice;
pub mod batch;
pub mod embedded;
mod error;
mod flags;
pub mod output;
pub mod tls;

use std::future::Future;
use std::time::{Duration, Instant};

use tonic::transport::{Channel, Endpoint};
use tonic::{Code, Request, Status};

pub use error::{ClientError, error_chain};
pub use flags::{SearchFlags, ServerFlags};
pub use output::{ResponseError, code_name, hint_json, hint_text, solution_json, solution_text, tile_moves};
pub use tls::{AccessToken, ClientTls, Credentials, TlsFlags, read_file};

use crate::proto::solver_service_client::SolverServiceClient;
use crate::proto::{self, hint_request, solve_request, solve_stream_request, solve_stream_response};
use crate::solver::Optimality;
use crate::{Algorithm, Board, Heuristic, server};

/// How long to wait for a TCP connection before calling the server unreachable.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// The largest answer accepted: a long solution of a big board is many boards of N*N tiles.
pub const MAX_RESPONSE_BYTES: usize = 256 * 1024 * 1024;

/// What a call asks of the server's search; the defaults let the server choose everything.
#[derive(Debug, Clone, Copy, Default)]
pub struct SolveOptions {
    /// The search algorithm; `Auto` lets the server pick the fastest optimal one.
    pub algorithm: Algorithm,
    /// The heuristic; `Auto` lets the server pick the strongest for the algorithm.
    pub heuristic: Heuristic,
    /// Give up after expanding this many nodes; `None` leaves it to the server's own limits.
    pub max_expanded_nodes: Option<u64>,
    /// How short the answer must be: the minimum (the default), within `weight` of it, or any.
    pub optimality: Optimality,
    /// For [`Optimality::Bounded`] only: the answer is at most this many times the minimum.
    pub weight: Option<f64>,
    /// The search's time limit (never above the server's): when [`Optimality::Anytime`]
    /// answers, and where the other modes give up. `None`: the server's own limit, or for
    /// ANYTIME a margin before the call's deadline.
    pub time_limit: Option<Duration>,
}

impl From<SolveOptions> for proto::SolveOptions {
    fn from(options: SolveOptions) -> proto::SolveOptions {
        proto::SolveOptions {
            algorithm: proto::Algorithm::from(options.algorithm).into(),
            heuristic: proto::Heuristic::from(options.heuristic).into(),
            max_expanded_nodes: options.max_expanded_nodes.unwrap_or(0),
            optimality: proto::Optimality::from(options.optimality).into(),
            weight: options.weight.unwrap_or(0.0),
            time_limit_ms: time_limit_ms(options.time_limit),
        }
    }
}

/// A time limit on the wire: 0 for none, else at least 1 ms. A limit past u32::MAX
/// milliseconds (49 days) is past every server's own.
fn time_limit_ms(limit: Option<Duration>) -> u32 {
    limit.map_or(0, |limit| u32::try_from(limit.as_millis()).unwrap_or(u32::MAX).max(1))
}

/// The server's address as an endpoint; `http://` may be left out (`127.0.0.1:50051`).
pub fn parse_address(address: &str) -> Result<Endpoint, ClientError> {
    let url = if address.contains("://") { address.to_string() } else { format!("http://{address}") };
    Endpoint::from_shared(url).map_err(|source| ClientError::Address { address: address.to_string(), source })
}

/// A message of a `SolveStream` before its final Solution, handed to the caller as it comes.
#[derive(Debug, Clone, Copy)]
pub enum StreamEvent<'a> {
    /// A snapshot of the running search.
    Progress(&'a proto::Progress),
    /// ANYTIME only: a solution shorter than every one before it.
    Improved(&'a proto::Solution),
}

/// A connection to an npuzzle server, with the deadline its calls get.
#[derive(Debug, Clone)]
pub struct Client {
    service: SolverServiceClient<Channel>,
    deadline: Option<Duration>,
    token: Option<AccessToken>,
}

impl Client {
    /// Connects to the server at `address` (`http://` optional).
    pub async fn connect(address: &str) -> Result<Client, ClientError> {
        Client::connect_to(parse_address(address)?).await
    }

    /// Connects to the server at `endpoint`, waiting at most [`CONNECT_TIMEOUT`].
    pub async fn connect_to(endpoint: Endpoint) -> Result<Client, ClientError> {
        Client::connect_with(endpoint, Credentials::default()).await
    }

    /// Connects to the server at `endpoint` with `credentials` (see [`Credentials::endpoint`]
    /// for what is refused), waiting at most [`CONNECT_TIMEOUT`].
    pub async fn connect_with(endpoint: Endpoint, credentials: Credentials) -> Result<Client, ClientError> {
        let endpoint = credentials.endpoint(endpoint)?;
        let uri = endpoint.uri().to_string();
        let channel = endpoint
            .connect_timeout(CONNECT_TIMEOUT)
            .connect()
            .await
            .map_err(|source| ClientError::Connect { uri, source })?;
        let service = SolverServiceClient::new(channel).max_decoding_message_size(MAX_RESPONSE_BYTES);
        Ok(Client { service, deadline: None, token: credentials.token })
    }

    /// Starts `config`'s server inside this process (for the life of the tokio runtime) and
    /// connects to it.
    pub async fn embedded(config: server::Config) -> Result<Client, ClientError> {
        let address = embedded::start(config).await?;
        Client::connect(&address.to_string()).await
    }

    /// The same connection, whose calls each end after `deadline` (`None`: no deadline).
    pub fn with_deadline(self, deadline: Option<Duration>) -> Client {
        Client { deadline, ..self }
    }

    /// `Solve`: the optimal solution of `board`, in one answer.
    pub async fn solve(&self, board: &Board, options: SolveOptions) -> Result<proto::Solution, ClientError> {
        let message = proto::SolveRequest {
            puzzle: Some(solve_request::Puzzle::Board(board.into())),
            options: Some(options.into()),
        };
        let request = self.request(message);
        let mut service = self.service.clone();
        self.within_deadline(async move { Ok(service.solve(request).await?.into_inner().solution) }).await
    }

    /// `Hint`: how far `board` is from the goal and every first move of a shortest solution,
    /// searched for at most `time_limit` (`None`: the server's default for hints), within the
    /// client's deadline.
    pub async fn hint(&self, board: &Board, time_limit: Option<Duration>) -> Result<proto::HintResponse, ClientError> {
        let message = proto::HintRequest {
            puzzle: Some(hint_request::Puzzle::Board(board.into())),
            time_limit_ms: time_limit_ms(time_limit),
        };
        let request = self.request(message);
        let mut service = self.service.clone();
        self.within_deadline(async move { Ok(Some(service.hint(request).await?.into_inner())) }).await
    }

    /// `SolveStream`: the solution of `board`, with each Progress message (at the server's own
    /// interval) and each improved solution (ANYTIME) handed to `on_event` as it comes.
    pub async fn solve_stream(
        &self,
        board: &Board,
        options: SolveOptions,
        mut on_event: impl FnMut(StreamEvent<'_>),
    ) -> Result<proto::Solution, ClientError> {
        let message = proto::SolveStreamRequest {
            puzzle: Some(solve_stream_request::Puzzle::Board(board.into())),
            options: Some(options.into()),
            // The server's own default.
            progress_interval_ms: 0,
        };
        let request = self.request(message);
        let mut service = self.service.clone();
        self.within_deadline(async move {
            let mut stream = service.solve_stream(request).await?.into_inner();
            while let Some(message) = stream.message().await? {
                match message.event {
                    Some(solve_stream_response::Event::Progress(progress)) => {
                        on_event(StreamEvent::Progress(&progress))
                    }
                    Some(solve_stream_response::Event::Improved(improved)) => {
                        on_event(StreamEvent::Improved(&improved))
                    }
                    Some(solve_stream_response::Event::Solution(solution)) => return Ok(Some(solution)),
                    None => {}
                }
            }
            Ok(None)
        })
        .await
    }

    /// A request that tells the server the deadline (`grpc-timeout`), so the search stops
    /// there, and carries the access token.
    fn request<T>(&self, message: T) -> Request<T> {
        let mut request = Request::new(message);
        if let Some(token) = &self.token {
            request.metadata_mut().insert("authorization", token.header());
        }
        if let Some(deadline) = self.deadline {
            request.set_timeout(deadline);
        }
        request
    }

    /// Runs `call` within the deadline: the server stops at the deadline it is sent, and a local
    /// timer covers a server that does not.
    /// `None` from `call` is an answer without its message: [`ClientError::NoSolution`].
    async fn within_deadline<T>(
        &self,
        call: impl Future<Output = Result<Option<T>, Status>>,
    ) -> Result<T, ClientError> {
        let started = Instant::now();
        let answer = match self.deadline {
            Some(deadline) => tokio::time::timeout(deadline, call)
                .await
                .unwrap_or_else(|_| Err(Status::deadline_exceeded("the deadline passed"))),
            None => call.await,
        };
        match (answer, self.deadline) {
            (Ok(answer), _) => answer.ok_or(ClientError::NoSolution),
            // tonic's own deadline check on the server answers CANCELLED; past the deadline it
            // means the same.
            (Err(status), Some(deadline))
                if status.code() == Code::DeadlineExceeded
                    || (status.code() == Code::Cancelled && started.elapsed() >= deadline) =>
            {
                Err(ClientError::DeadlineExceeded(deadline))
            }
            (Err(status), _) => Err(ClientError::Status(status)),
        }
    }
}
