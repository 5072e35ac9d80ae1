//! The `Hint` RPC and the first hour's answers: the next best moves and the distance, the
//! method each answer names, an unsolvable board said plainly, a first Progress that says
//! something, and a MINIMUM proof out of reach given up in seconds, not minutes.

use std::time::{Duration, Instant};

use npuzzle::proto::{self, Direction as WireDirection, hint_request, solve_stream_response::Event};
use tonic::Code;
use tonic_types::StatusExt;

use crate::common::{HARDEST_3X3, PUZZLE04, UNSOLVABLE_3X3, board, config, solve_request, start, stream_request};

fn hint_request(dimension: u32, tiles: &[u32]) -> proto::HintRequest {
    proto::HintRequest { puzzle: Some(hint_request::Puzzle::Board(board(dimension, tiles))), time_limit_ms: 0 }
}

#[tokio::test]
async fn a_hint_gives_the_distance_and_every_first_move_of_a_shortest_solution() {
    let server = start(config()).await;
    let mut client = server.client().await;
    // puzzle04: 0 1 3 / 4 2 5 / 7 8 6, four moves: only sliding 1 left starts a shortest one.
    let hint = client.hint(hint_request(3, &PUZZLE04)).await.expect("a hint").into_inner();
    assert_eq!((hint.distance, hint.optimal, hint.lower_bound), (4, true, 4));
    assert_eq!(hint.moves, vec![proto::Move { tile: 1, direction: WireDirection::Left.into() }]);
    // The hardest 3×3, 31 moves: every first move given leads to a 30-move position.
    let hint = client.hint(hint_request(3, &HARDEST_3X3)).await.expect("a hint").into_inner();
    assert_eq!((hint.distance, hint.optimal), (31, true));
    assert!(!hint.moves.is_empty());
    let unsolvable = client.hint(hint_request(3, &UNSOLVABLE_3X3)).await.expect("a hint").into_inner();
    assert_eq!((unsolvable.distance, unsolvable.moves.len()), (-1, 0));
    let bad = client.hint(hint_request(3, &PUZZLE04[..8])).await.expect_err("not a board");
    assert_eq!(bad.code(), Code::InvalidArgument);
    assert_eq!(bad.get_details_error_info().expect("an ErrorInfo").reason, "INVALID_PUZZLE");
}

#[tokio::test]
async fn every_answer_names_its_method_and_an_unsolvable_board_says_so() {
    let server = start(config()).await;
    let mut client = server.client().await;
    let solution = client.solve(solve_request(board(3, &PUZZLE04), None)).await.expect("solves").into_inner();
    let stats = solution.solution.expect("a solution").stats.expect("stats");
    assert_eq!(stats.method(), proto::Method::DistanceTable);
    let unsolvable = client.solve(solve_request(board(3, &UNSOLVABLE_3X3), None)).await.expect("answers");
    let unsolvable = unsolvable.into_inner().solution.expect("a solution");
    // Set, not left to its default, so that JSON shows "solvable": false.
    assert_eq!(unsolvable.solvable, Some(false));
}

#[tokio::test]
async fn a_streams_first_progress_says_something() {
    let server = start(config()).await;
    let mut stream =
        server.client().await.solve_stream(stream_request(board(3, &HARDEST_3X3), None, 10)).await.expect("starts");
    let first = stream.get_mut().message().await.expect("a message").expect("the stream is open");
    let Some(Event::Progress(progress)) = first.event else { panic!("a Progress first: {first:?}") };
    assert_ne!(progress, proto::Progress::default(), "the first Progress is empty");
    assert!(progress.priority > 0 && progress.elapsed_micros > 0, "{progress:?}");
}

#[tokio::test]
async fn a_minimum_proof_far_out_of_reach_is_given_up_within_seconds() {
    let server = start(config()).await;
    // A random 12×12 board: FAST's path is hundreds of moves over the proven bound.
    let mut rng = npuzzle::random::Rng::new(46);
    let big = npuzzle::random::random_board(12, &mut rng).expect("a board");
    let tiles: Vec<u32> = big.tiles().iter().map(|&tile| u32::from(tile)).collect();
    let started = Instant::now();
    let status = server.client().await.solve(solve_request(board(12, &tiles), None)).await.expect_err("gives up");
    assert!(started.elapsed() < Duration::from_secs(10), "took {:?}", started.elapsed());
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    let info = status.get_details_error_info().expect("an ErrorInfo");
    assert_eq!(info.reason, "PROOF_OUT_OF_REACH");
    let forecast: u64 = info.metadata.get("forecast_ms").and_then(|ms| ms.parse().ok()).expect("a forecast");
    let left: u64 = info.metadata.get("time_left_ms").and_then(|ms| ms.parse().ok()).expect("the time left");
    assert!(forecast > 100 * left, "{info:?}");
    assert!(status.message().contains("a proof is out of reach"), "{status:?}");
}
