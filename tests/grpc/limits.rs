//! End to end over real gRPC: a search stops when its deadline passes or its client goes away,
//! shown by the server's running-search count falling to 0; the node budget and a full server
//! answer RESOURCE_EXHAUSTED, and only the full server's carries the busy mark a proxy retries
//! on.

use crate::common;
use tonic_types::StatusExt;

use std::time::{Duration, Instant};

use crate::common::{
    board, config, hard_request, hard_stream_request, report_stop, slow_options, solve_request, start,
    start_with_limits, status_after_progress,
};
use npuzzle::proto::{self, solve_stream_response::Event};
use npuzzle::service::{BUSY_METADATA, Limits, NO_RETRY_METADATA, is_busy};
use tonic::{Code, Request, Status};

/// The value of the busy mark in `status`'s metadata, if it has one.
fn busy_mark(status: &Status) -> Option<&str> {
    status.metadata().get(BUSY_METADATA).and_then(|value| value.to_str().ok())
}

#[tokio::test]
async fn a_passed_deadline_answers_deadline_exceeded_and_stops_the_search() {
    let server = start(config()).await;
    let mut request = Request::new(hard_request());
    request.set_timeout(Duration::from_millis(400));
    let sent = Instant::now();
    let status = server.client().await.solve(request).await.expect_err("no answer in time");
    let answered = sent.elapsed();
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    assert!(answered < Duration::from_millis(400), "answered within the timeout, took {answered:?}");
    report_stop("unary deadline", server.time_until_idle().await);
}

#[tokio::test]
async fn a_stream_whose_deadline_passes_ends_with_deadline_exceeded() {
    let server = start(config()).await;
    let mut request = Request::new(hard_stream_request());
    request.set_timeout(Duration::from_millis(400));
    let mut stream = server.client().await.solve_stream(request).await.expect("the stream starts").into_inner();
    let first = stream.message().await.expect("a first message").expect("the stream is open");
    assert!(matches!(first.event, Some(Event::Progress(_))));
    let status = status_after_progress(&mut stream).await;
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    report_stop("stream deadline", server.time_until_idle().await);
}

#[tokio::test]
async fn a_dropped_stream_stops_its_search() {
    let server = start(config()).await;
    let stream = server.running_hard_stream().await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(server.running.count(), 1, "the search is still running while the client listens");
    drop(stream);
    report_stop("dropped stream", server.time_until_idle().await);
}

#[tokio::test]
async fn a_dropped_unary_call_stops_its_search() {
    let server = start(config()).await;
    let mut client = server.client().await;
    let call = tokio::spawn(async move { client.solve(hard_request()).await });
    server.wait_for_running(1).await;
    call.abort();
    report_stop("dropped unary call", server.time_until_idle().await);
}

#[tokio::test]
async fn the_node_budget_answers_resource_exhausted_naming_the_limit() {
    let server = start(config()).await;
    let options = proto::SolveOptions { max_expanded_nodes: 5000, ..slow_options() };
    let request = solve_request(board(4, &common::HARD_4X4), Some(options));
    let status = server.client().await.solve(request).await.expect_err("the budget runs out");
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(status.message().contains("limit 5000"), "{status:?}");
    // What ran out and what to try travel as google.rpc.ErrorInfo, not as wire names in the text.
    assert!(!status.message().contains("max_expanded_nodes"), "no wire names: {status:?}");
    let info = status.get_details_error_info().expect("an ErrorInfo");
    assert_eq!(info.reason, "NODE_BUDGET_SPENT");
    assert_eq!(info.metadata.get("limit").map(String::as_str), Some("5000"));
    assert_eq!(info.metadata.get("suggested_optimality").map(String::as_str), Some("OPTIMALITY_ANYTIME"));
    assert_eq!(busy_mark(&status), None, "a spent budget is not busy: {status:?}");
    assert!(!is_busy(&status));
    let pushback = status.metadata().get(NO_RETRY_METADATA).and_then(|value| value.to_str().ok());
    assert_eq!(pushback, Some("-1"), "a spent budget tells retry policies not to retry: {status:?}");
}

#[tokio::test]
async fn a_budget_above_the_servers_cap_is_clamped_to_the_cap() {
    let server = start_with_limits(Limits { max_expanded_nodes: Some(3000), ..config().limits }).await;
    let options = proto::SolveOptions { max_expanded_nodes: 1_000_000_000, ..slow_options() };
    let request = solve_request(board(4, &common::HARD_4X4), Some(options));
    let status = server.client().await.solve(request).await.expect_err("the capped budget runs out");
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(status.message().contains("limit 3000"), "{status:?}");
}

#[tokio::test]
async fn a_full_server_answers_resource_exhausted_after_its_queue_timeout() {
    let queue_timeout = Duration::from_millis(50);
    let server = start_with_limits(Limits { max_concurrent_solves: 1, queue_timeout, ..config().limits }).await;
    let busy = server.running_hard_stream().await;
    let asked = Instant::now();
    let status = server.client().await.solve(hard_request()).await.expect_err("no slot is free");
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(status.message().contains("server busy: 1 searches running, retry later"), "{status:?}");
    assert_eq!(busy_mark(&status), Some("1"), "{status:?}");
    assert!(is_busy(&status));
    assert!(asked.elapsed() >= queue_timeout, "it waited for a slot first");
    drop(busy);
    server.time_until_idle().await;
}

#[tokio::test]
async fn a_full_server_refuses_a_stream_busy_before_it_starts() {
    let queue_timeout = Duration::from_millis(50);
    let server = start_with_limits(Limits { max_concurrent_solves: 1, queue_timeout, ..config().limits }).await;
    let busy = server.running_hard_stream().await;
    // The refusal is the call's answer, not a stream item: a trailers-only response whose
    // headers carry the mark, so a proxy can retry the call on another replica.
    let status = server.client().await.solve_stream(hard_stream_request()).await.expect_err("no slot is free");
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert_eq!(busy_mark(&status), Some("1"), "{status:?}");
    drop(busy);
    server.time_until_idle().await;
}

#[tokio::test]
async fn a_stream_whose_budget_runs_out_ends_without_the_busy_mark() {
    let server = start(config()).await;
    let options = proto::SolveOptions { max_expanded_nodes: 5000, ..slow_options() };
    let request = crate::common::stream_request(board(4, &common::HARD_4X4), Some(options), 0);
    let mut stream = server.client().await.solve_stream(request).await.expect("the stream starts").into_inner();
    let status = status_after_progress(&mut stream).await;
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert_eq!(busy_mark(&status), None, "{status:?}");
}
