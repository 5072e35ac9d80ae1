//! End to end over real gRPC: health checking, server reflection (v1 and v1alpha), and a
//! graceful shutdown that turns health NOT_SERVING, lets short searches finish, stops long ones
//! and returns `Ok`.

use crate::common;

use std::time::Duration;

use crate::common::{HARDEST_3X3, board, config, hard_stream_request, start, stream_request};
use npuzzle::proto::solve_stream_response::Event;
use npuzzle::server::Config;
use tokio_stream::StreamExt;
use tonic::Code;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_health::pb::{HealthCheckRequest, HealthCheckResponse};
use tonic_reflection::pb::{v1, v1alpha};

const SERVICE: &str = "npuzzle.v1.SolverService";

fn health_request(service: &str) -> HealthCheckRequest {
    HealthCheckRequest { service: service.into() }
}

#[tokio::test]
async fn health_is_serving_for_the_server_and_for_the_solver_service() {
    let server = start(config()).await;
    let mut health = HealthClient::new(server.channel().await);
    for service in ["", SERVICE] {
        let response = health.check(health_request(service)).await.expect("a health answer").into_inner();
        assert_eq!(response.status(), ServingStatus::Serving, "{service:?}");
    }
    let unknown = health.check(health_request("no.such.Service")).await.expect_err("unknown service");
    assert_eq!(unknown.code(), Code::NotFound);
}

#[tokio::test]
async fn reflection_v1_lists_the_solver_service() {
    let server = start(config()).await;
    let mut reflection = v1::server_reflection_client::ServerReflectionClient::new(server.channel().await);
    let request = v1::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(v1::server_reflection_request::MessageRequest::ListServices(String::new())),
    };
    let mut responses =
        reflection.server_reflection_info(tokio_stream::iter([request])).await.expect("v1").into_inner();
    let response = responses.message().await.expect("an answer").expect("one response");
    let Some(v1::server_reflection_response::MessageResponse::ListServicesResponse(list)) = response.message_response
    else {
        panic!("a service list");
    };
    let names: Vec<String> = list.service.into_iter().map(|service| service.name).collect();
    assert!(names.iter().any(|name| name == SERVICE), "{names:?}");
    assert!(names.iter().any(|name| name == "grpc.health.v1.Health"), "{names:?}");
}

#[tokio::test]
async fn reflection_v1alpha_lists_the_solver_service() {
    let server = start(config()).await;
    let mut reflection = v1alpha::server_reflection_client::ServerReflectionClient::new(server.channel().await);
    let request = v1alpha::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(v1alpha::server_reflection_request::MessageRequest::ListServices(String::new())),
    };
    let mut responses =
        reflection.server_reflection_info(tokio_stream::iter([request])).await.expect("v1alpha").into_inner();
    let response = responses.message().await.expect("an answer").expect("one response");
    let Some(v1alpha::server_reflection_response::MessageResponse::ListServicesResponse(list)) =
        response.message_response
    else {
        panic!("a service list");
    };
    assert!(list.service.iter().any(|service| service.name == SERVICE), "{:?}", list.service);
}

/// The next status a health watch reports.
async fn next_status(watch: &mut tonic::Streaming<HealthCheckResponse>) -> ServingStatus {
    let update = tokio::time::timeout(Duration::from_secs(5), watch.next()).await.expect("an update in time");
    update.expect("the watch is open").expect("no error").status()
}

#[tokio::test]
async fn shutdown_turns_health_not_serving_stops_running_searches_and_returns_ok() {
    let mut server = start(config()).await;
    let channel = server.channel().await;
    let mut watches = Vec::new();
    for service in ["", SERVICE] {
        let mut watch = HealthClient::new(channel.clone()).watch(health_request(service)).await.expect("a watch");
        assert_eq!(next_status(watch.get_mut()).await, ServingStatus::Serving);
        watches.push(watch.into_inner());
    }
    let mut client = common::SolverServiceClient::new(channel.clone());
    let mut search = client.solve_stream(hard_stream_request()).await.expect("starts").into_inner();
    server.wait_for_running(1).await;

    server.shut_down();
    for watch in &mut watches {
        assert_eq!(next_status(watch).await, ServingStatus::NotServing);
    }
    drop(watches);
    let status = common::status_after_progress(&mut search).await;
    assert_eq!(status.code(), Code::Unavailable, "{status:?}");
    assert!(status.message().contains("shutting down"), "{status:?}");
    common::report_stop("shutdown", server.time_until_idle().await);
    drop((search, client, channel));
    server.stopped().await.expect("run returns Ok");
}

#[tokio::test]
async fn a_search_that_ends_within_the_drain_still_gets_its_answer() {
    let mut server = start(Config { drain_timeout: Duration::from_secs(5), ..config() }).await;
    let mut client = server.client().await;
    let request = stream_request(board(3, &HARDEST_3X3), None, 0);
    let mut events = client.solve_stream(request).await.expect("starts").into_inner();
    // The first Progress comes once the search has its slot.
    events.message().await.expect("a first message").expect("the stream is open");
    server.shut_down();
    let mut last = None;
    while let Some(message) = events.message().await.expect("no error status") {
        last = message.event;
    }
    let Some(Event::Solution(solution)) = last else { panic!("the stream ends with its Solution: {last:?}") };
    assert_eq!(solution.moves, 31);
    drop((events, client));
    server.stopped().await.expect("run returns Ok");
}

#[tokio::test]
async fn an_idle_server_stops_at_once() {
    let mut server = start(Config { drain_timeout: Duration::from_secs(60), ..config() }).await;
    let started = std::time::Instant::now();
    server.shut_down();
    server.stopped().await.expect("run returns Ok");
    assert!(started.elapsed() < Duration::from_secs(5), "it did not wait for the drain timeout");
}
