//! The library's [`Client`] against a real server: unary and streamed answers agree and the
//! progress reaches the callback; a passed deadline is `DeadlineExceeded` (whichever status the
//! server used) and stops the search; a refusal keeps its status; addresses are read with or
//! without `http://`; and an embedded client needs no server at all.

use std::time::Duration;

use npuzzle::client::{Client, ClientError, SolveOptions, parse_address};
use npuzzle::server::Config;
use npuzzle::solver::Optimality;
use npuzzle::{Algorithm, Board, Heuristic};
use tonic::Code;

use crate::common::{HARD_4X4, HARDEST_3X3, PUZZLE04, config, report_stop, start};

/// The library's `Board` of a square tile list.
fn board(tiles: &[u32]) -> Board {
    let tiles: Vec<u16> = tiles.iter().map(|&tile| u16::try_from(tile).expect("a small tile")).collect();
    Board::new(tiles.len().isqrt(), &tiles).expect("a board")
}

/// A* with Hamming: far too slow for the 80-move 4×4 board, so its search is still running.
const SLOW: SolveOptions = SolveOptions {
    algorithm: Algorithm::AStar,
    heuristic: Heuristic::Hamming,
    max_expanded_nodes: None,
    optimality: Optimality::Minimum,
    weight: None,
    time_limit: None,
};

#[tokio::test]
async fn unary_and_stream_give_the_same_solution_and_progress_reaches_the_callback() {
    let server = start(config()).await;
    let client = Client::connect(&server.address.to_string()).await.expect("connects without http://");
    let hardest = board(&HARDEST_3X3);
    let unary = client.solve(&hardest, SolveOptions::default()).await.expect("a unary answer");
    assert_eq!(unary.moves, 31);
    let mut progress = 0;
    let streamed = client.solve_stream(&hardest, SLOW, |_| progress += 1).await.expect("a streamed answer");
    assert_eq!((streamed.moves, streamed.boards.len()), (31, 32));
    assert!(progress >= 1, "the stream's first Progress reached the callback");
}

#[tokio::test]
async fn a_passed_deadline_is_deadline_exceeded_and_stops_the_search() {
    let server = start(config()).await;
    let deadline = Duration::from_millis(300);
    let client =
        Client::connect(&format!("http://{}", server.address)).await.expect("connects").with_deadline(Some(deadline));
    let hard = board(&HARD_4X4);
    for stream in [false, true] {
        let answer =
            if stream { client.solve_stream(&hard, SLOW, |_| {}).await } else { client.solve(&hard, SLOW).await };
        let error = answer.expect_err("no answer within 300 ms");
        assert!(
            matches!(error, ClientError::DeadlineExceeded(after) if after == deadline),
            "stream {stream}: {error:?}"
        );
        assert_eq!(error.to_string(), "deadline exceeded after 0.3s");
        report_stop("client deadline", server.time_until_idle().await);
    }
}

#[tokio::test]
async fn a_refusal_keeps_its_status_and_reads_like_grpcurl() {
    let server = start(config()).await;
    let client = Client::connect(&server.address.to_string()).await.expect("connects");
    let options = SolveOptions { max_expanded_nodes: Some(1), ..SLOW };
    let error = client.solve(&board(&HARD_4X4), options).await.expect_err("one node is not enough");
    assert!(matches!(&error, ClientError::Status(status) if status.code() == Code::ResourceExhausted), "{error:?}");
    assert!(error.to_string().starts_with("RESOURCE_EXHAUSTED: "), "{error}");
}

#[tokio::test]
async fn addresses_are_read_with_or_without_a_scheme_and_failures_name_them() {
    assert_eq!(parse_address("127.0.0.1:50051").expect("an address").uri().to_string(), "http://127.0.0.1:50051/");
    assert_eq!(parse_address("http://[::1]:7").expect("an address").uri().to_string(), "http://[::1]:7/");
    let error = parse_address("not an address").expect_err("spaces are not a URL");
    assert!(matches!(&error, ClientError::Address { address, .. } if address == "not an address"), "{error:?}");
    // A port the OS just handed out and nobody listens on any more.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port");
    let error = Client::connect(&closed.to_string()).await.expect_err("nobody listens");
    assert!(matches!(error, ClientError::Connect { .. }), "{error:?}");
    assert!(error.to_string().starts_with(&format!("cannot connect to http://{closed}")), "{error}");
}

#[tokio::test]
async fn an_embedded_client_needs_no_server() {
    let client = Client::embedded(Config::default()).await.expect("the in-process server starts");
    let solution = client.solve(&board(&PUZZLE04), SolveOptions::default()).await.expect("an answer");
    assert_eq!(solution.moves, 4);
}
