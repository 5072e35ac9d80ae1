//! Access tokens against a real server started with `--auth-token-file`: no token and a wrong
//! one get UNAUTHENTICATED, the right one OK; health answers without one; the client refuses to
//! send a token in plaintext beyond loopback; a token file others may read stops the server.

use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

use npuzzle::client::{AccessToken, Client, ClientError, Credentials, SolveOptions};
use npuzzle::proto::solver_service_client::SolverServiceClient;
use npuzzle::proto::{self, solve_request};
use tonic::Code;
use tonic::transport::{Channel, Endpoint};
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};

use crate::process::Process;

const TOKEN: &str = "a-long-random-token-0123456789";

fn request(token: Option<&str>) -> tonic::Request<proto::SolveRequest> {
    let board = proto::Board { dimension: 3, tiles: vec![0, 1, 3, 4, 2, 5, 7, 8, 6] };
    let mut request =
        tonic::Request::new(proto::SolveRequest { puzzle: Some(solve_request::Puzzle::Board(board)), options: None });
    if let Some(token) = token {
        request.metadata_mut().insert("authorization", format!("Bearer {token}").parse().expect("ASCII"));
    }
    request
}

#[tokio::test]
async fn only_the_right_token_is_answered_and_health_needs_none() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("tokens");
    std::fs::write(&file, format!("other-token\n{TOKEN}\n")).expect("writes");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let log = dir.path().join("server.log");
    let server = Process::server_logged(&["--auth-token-file", file.to_str().expect("UTF-8")], &log);
    let channel = Channel::from_shared(server.url()).expect("a URI").connect().await.expect("connects");
    let mut solver = SolverServiceClient::new(channel.clone());
    for (token, what) in [(None, "no token"), (Some("wrong-token"), "a wrong token")] {
        let status = solver.solve(request(token)).await.expect_err(what);
        assert_eq!(status.code(), Code::Unauthenticated, "{what}: {status:?}");
        println!("{what}: {:?} {:?}", status.code(), status.message());
    }
    let answer = solver.solve(request(Some(TOKEN))).await.expect("the right token is answered");
    assert_eq!(answer.into_inner().solution.expect("a solution").moves, 4);

    let token = AccessToken::new(TOKEN).expect("ASCII");
    let endpoint = Endpoint::from_shared(server.url()).expect("a URI");
    let client = Client::connect_with(endpoint, Credentials { tls: None, token: Some(token) }).await.expect("connects");
    let board = npuzzle::text::parse_board("3\n0 1 3\n4 2 5\n7 8 6\n").expect("a board");
    assert_eq!(client.solve(&board, SolveOptions::default()).await.expect("the library's client").moves, 4);

    let health = HealthClient::new(channel).check(HealthCheckRequest { service: String::new() }).await;
    assert_eq!(health.expect("health answers without a token").into_inner().status(), ServingStatus::Serving);
    let logged = std::fs::read_to_string(&log).expect("the log");
    assert!(!logged.contains(TOKEN) && !logged.contains("other-token"), "a token reached the log:\n{logged}");
}

#[tokio::test]
async fn the_client_sends_no_token_in_plaintext_beyond_loopback() {
    let token = AccessToken::new(TOKEN).expect("ASCII");
    let endpoint = Endpoint::from_shared("http://192.0.2.1:50051").expect("a URI");
    let refused = tokio::time::timeout(
        Duration::from_secs(1),
        Client::connect_with(endpoint, Credentials { tls: None, token: Some(token) }),
    )
    .await
    .expect("refused at once, without connecting")
    .expect_err("a token in plaintext beyond loopback");
    assert!(matches!(refused, ClientError::TokenOverPlaintext(_)), "{refused}");
    println!("token over plaintext to 192.0.2.1: {refused}");
}

#[test]
fn a_token_file_others_may_read_stops_the_server() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("tokens");
    std::fs::write(&file, TOKEN).expect("writes");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_npuzzle-server"))
        .args(["--listen", "127.0.0.1:0", "--no-pattern-db", "--auth-token-file", file.to_str().expect("UTF-8")])
        .output()
        .expect("the server runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success() && stderr.contains("readable by its group or others"), "{stderr}");
    assert!(!stderr.contains(TOKEN), "{stderr}");
}
