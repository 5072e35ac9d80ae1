//! End to end over real gRPC: `Solve` and `SolveStream` answers (the event order included),
//! unsolvable boards, and every malformed request refused with the status that names it.

use crate::common;
use tonic_types::StatusExt;

use crate::common::{HARDEST_3X3, PUZZLE04, UNSOLVABLE_3X3, board, config, solve_request, start, stream_request};
use npuzzle::proto::{self, solve_request::Puzzle, solve_stream_response::Event};
use npuzzle::server::Config;
use tonic::Code;

fn goal(dimension: u32) -> proto::Board {
    let cells = dimension * dimension;
    board(dimension, &(1..cells).chain([0]).collect::<Vec<_>>())
}

fn text_request(text: &str) -> proto::SolveRequest {
    proto::SolveRequest { puzzle: Some(Puzzle::Text(text.into())), options: None }
}

#[tokio::test]
async fn solve_answers_with_a_shortest_path_its_boards_and_its_steps() {
    let server = start(config()).await;
    let response = server.client().await.solve(solve_request(board(3, &PUZZLE04), None)).await.expect("an answer");
    let solution = response.into_inner().solution.expect("a solution");
    assert!(solution.solvable());
    assert_eq!(solution.moves, 4);
    assert_eq!(solution.boards.len(), 5);
    assert_eq!(solution.boards.first(), Some(&board(3, &PUZZLE04)));
    assert_eq!(solution.boards.last(), Some(&goal(3)));
    let steps: Vec<(u32, proto::Direction)> = solution.steps.iter().map(|step| (step.tile, step.direction())).collect();
    assert_eq!(
        steps,
        [
            (1, proto::Direction::Left),
            (2, proto::Direction::Up),
            (5, proto::Direction::Left),
            (6, proto::Direction::Up)
        ]
    );
    assert!(solution.optimal);
    assert_eq!(solution.lower_bound, 4);
    assert_eq!(solution.blank_moves, "RDRD");
    // The 3×3 distance table answers without a search: no algorithm ran.
    let stats = solution.stats.expect("stats");
    assert_eq!((stats.algorithm(), stats.nodes_expanded), (proto::Algorithm::Unspecified, 0));
}

#[tokio::test]
async fn solve_accepts_the_spec_text_format() {
    let server = start(config()).await;
    let response = server.client().await.solve(text_request("3\n 0  1  3\n 4  2  5\n 7  8  6\n")).await;
    let solution = response.expect("an answer").into_inner().solution.expect("a solution");
    assert_eq!(solution.moves, 4);
    assert_eq!(solution.boards.first(), Some(&board(3, &PUZZLE04)));
}

#[tokio::test]
async fn an_unsolvable_board_is_an_answer_with_moves_minus_one() {
    let server = start(config()).await;
    let response = server.client().await.solve(solve_request(board(3, &UNSOLVABLE_3X3), None)).await;
    let solution = response.expect("an answer, not an error").into_inner().solution.expect("a solution");
    assert!(!solution.solvable());
    assert_eq!(solution.moves, -1);
    assert!(solution.boards.is_empty());
    assert!(solution.steps.is_empty());
}

/// Collects every event of a stream, failing on an error status.
async fn events(request: proto::SolveStreamRequest, server: &common::TestServer) -> Vec<Event> {
    let mut stream = server.client().await.solve_stream(request).await.expect("the stream starts").into_inner();
    let mut events = Vec::new();
    while let Some(message) = stream.message().await.expect("no error status") {
        events.push(message.event.expect("every message carries an event"));
    }
    events
}

#[tokio::test]
async fn solve_stream_sends_progress_first_and_exactly_one_solution_last() {
    let server = start(config()).await;
    let events = events(stream_request(board(3, &HARDEST_3X3), None, 10), &server).await;
    assert!(matches!(events.first(), Some(Event::Progress(_))), "the first event is a Progress");
    let Some((Event::Solution(solution), before)) = events.split_last() else {
        panic!("the last event is the Solution: {events:?}");
    };
    assert!(before.iter().all(|event| matches!(event, Event::Progress(_))), "one Solution, and only at the end");
    assert_eq!(solution.moves, 31);
    assert_eq!(solution.boards.last(), Some(&goal(3)));
}

#[tokio::test]
async fn solve_stream_answers_an_unsolvable_board_after_its_first_progress() {
    let server = start(config()).await;
    let events = events(stream_request(board(3, &UNSOLVABLE_3X3), None, 0), &server).await;
    let [Event::Progress(_), Event::Solution(solution)] = events.as_slice() else {
        panic!("a Progress, then the Solution: {events:?}");
    };
    assert!(!solution.solvable());
    assert_eq!(solution.moves, -1);
}

/// Sends `request` and returns its error status.
async fn refusal(server: &common::TestServer, request: proto::SolveRequest) -> tonic::Status {
    server.client().await.solve(request).await.expect_err("the request is refused")
}

#[tokio::test]
async fn every_malformed_request_is_invalid_argument_with_a_message_that_names_the_problem() {
    let server = start(config()).await;
    let with_options = |algorithm: i32, heuristic: i32| {
        let options = proto::SolveOptions { algorithm, heuristic, ..proto::SolveOptions::default() };
        solve_request(board(3, &PUZZLE04), Some(options))
    };
    let cases = [
        ("no puzzle", proto::SolveRequest::default(), "no puzzle"),
        ("wrong tile count", solve_request(board(3, &PUZZLE04[..8]), None), "needs 9 tiles, got 8"),
        ("dimension 0", solve_request(board(0, &[]), None), "dimension 0"),
        ("dimension over the max", solve_request(board(129, &[]), None), "dimension 129 is above the maximum 128"),
        ("duplicate tile", solve_request(board(2, &[1, 1, 3, 0]), None), "tile 1 appears twice"),
        ("out-of-range tile", solve_request(board(2, &[1, 2, 4, 0]), None), "tile 4 at position 2 is out of range"),
        ("tile beyond u16", solve_request(board(2, &[1, 2, 70_000, 0]), None), "tile 70000"),
        ("text that does not parse", text_request("3\n1 2 x\n4 5 6\n7 8 0\n"), "line 2, column 5"),
        ("text over the max", text_request("200\n1 2 3"), "out of range 2..=128"),
        ("unknown algorithm", with_options(9, 0), "options.algorithm: unknown value 9"),
        ("unknown heuristic", with_options(0, 42), "options.heuristic: unknown value 42"),
    ];
    for (case, request, expected) in cases {
        let status = refusal(&server, request).await;
        assert_eq!(status.code(), Code::InvalidArgument, "{case}: {status:?}");
        assert!(status.message().contains(expected), "{case}: {:?} should contain {expected:?}", status.message());
        // And in the richer error model: the reason, and the field at fault.
        let info = status.get_details_error_info().expect("an ErrorInfo");
        let field = info.metadata.get("field").cloned().unwrap_or_default();
        assert!(["INVALID_PUZZLE", "INVALID_OPTIONS"].contains(&info.reason.as_str()), "{case}: {info:?}");
        let violations = status.get_details_bad_request().expect("a BadRequest").field_violations;
        assert_eq!(violations[0].field, field, "{case}");
    }
    let status = refusal(&server, text_request("3\n1 2 x\n4 5 6\n7 8 0\n")).await;
    let info = status.get_details_error_info().expect("an ErrorInfo");
    let at = |key: &str| info.metadata.get(key).cloned();
    assert_eq!((at("field"), at("line"), at("column")), (Some("text".into()), Some("2".into()), Some("5".into())));
    assert_eq!(server.running.count(), 0, "no search ran for a malformed request");
}

#[tokio::test]
async fn solve_stream_refuses_a_malformed_request_before_any_message() {
    let server = start(config()).await;
    let request = proto::SolveStreamRequest::default();
    let status = server.client().await.solve_stream(request).await.expect_err("the stream is refused");
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("no puzzle"), "{status:?}");
}

#[tokio::test]
async fn a_message_over_the_size_limit_is_refused() {
    let server = start(Config { max_message_bytes: 1024, ..config() }).await;
    let status = refusal(&server, text_request(&format!("2\n1 2 3 0 {}", " ".repeat(2048)))).await;
    assert_eq!(status.code(), Code::OutOfRange, "{status:?}");
    assert!(status.message().contains("the limit is: 1024 bytes"), "{status:?}");
}
