//! Which answers Envoy (`deploy/envoy.yaml`) retries on another replica: the server's "busy"
//! RESOURCE_EXHAUSTED, and never a spent budget, which is RESOURCE_EXHAUSTED too but would spend
//! the same budget on every replica. Envoy's `x-envoy-attempt-count` response header and its
//! retry counter show how many attempts each call took. The replicas take only mTLS clients:
//! the test holds their search slots with a client certificate from the clients' CA.

use npuzzle::client::ClientTls;
use tonic::transport::Channel;
use tonic::{Code, Status, Streaming};

use crate::envoy::{self, Certificates, Envoy, channel, https_url};
use crate::process::Process;
use npuzzle::proto::solver_service_client::SolverServiceClient;
use npuzzle::proto::{self, SolveStreamResponse, solve_request, solve_stream_request};
use npuzzle::service::is_busy;

/// An 80-move 4×4 board: without pattern databases its search outlasts the test.
const HARD_4X4: [u32; 16] = [0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1];
/// The calls a route's `num_retries: 5` allows: the first and five retries.
const MOST_ATTEMPTS: u32 = 6;

fn hard_board() -> proto::Board {
    proto::Board { dimension: 4, tiles: HARD_4X4.to_vec() }
}

async fn client(url: &str, tls: ClientTls) -> SolverServiceClient<Channel> {
    SolverServiceClient::new(channel(url, Some(tls)).await.expect("connects"))
}

/// How many attempts Envoy says the call took.
fn attempts(status: &Status) -> Option<u32> {
    status.metadata().get("x-envoy-attempt-count")?.to_str().ok()?.parse().ok()
}

/// Holds `replica`'s only search slot: a stream whose search is running (its first message,
/// sent once the slot is taken, has arrived), connected with `tls`.
async fn hold_the_slot(replica: &Process, tls: ClientTls) -> Streaming<SolveStreamResponse> {
    let request = proto::SolveStreamRequest {
        puzzle: Some(solve_stream_request::Puzzle::Board(hard_board())),
        ..Default::default()
    };
    let mut stream = client(&https_url(replica), tls).await.solve_stream(request).await.expect("starts").into_inner();
    stream.message().await.expect("a first message").expect("the stream is open");
    stream
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn envoy_retries_a_busy_answer_and_never_a_spent_budget() {
    let Some(binary) = Envoy::binary() else { return };
    // One search slot each and a short wait for it: a replica whose slot is held is busy at once.
    let flags = ["--max-concurrent-solves", "1", "--queue-timeout-ms", "100"];
    let certificates = Certificates::new();
    let replicas = envoy::replicas(&certificates, &flags);
    let [first, second, third] = &replicas;
    let envoy = Envoy::start(&binary, &certificates, &[first, second, third]).await;
    let mut through_envoy = client(&envoy.url(), certificates.client()).await;
    let retries = || envoy.counters(&["upstream_rq_retry"]);

    let before = retries().await[0];
    let options = proto::SolveOptions { max_expanded_nodes: 1000, ..Default::default() };
    let spent =
        proto::SolveRequest { puzzle: Some(solve_request::Puzzle::Board(hard_board())), options: Some(options) };
    let status = through_envoy.solve(spent).await.expect_err("the node budget runs out");
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(!is_busy(&status), "{status:?}");
    assert_eq!(attempts(&status), Some(1), "a spent budget is answered after one attempt: {status:?}");
    assert_eq!(retries().await[0], before, "Envoy retried a spent budget");

    let direct = || certificates.client_with_certificate(None);
    let _held = [
        hold_the_slot(first, direct()).await,
        hold_the_slot(second, direct()).await,
        hold_the_slot(third, direct()).await,
    ];
    let trivial = proto::SolveRequest {
        puzzle: Some(solve_request::Puzzle::Board(proto::Board { dimension: 2, tiles: vec![1, 2, 3, 0] })),
        options: None,
    };
    let status = through_envoy.solve(trivial).await.expect_err("every replica is busy");
    assert!(is_busy(&status), "{status:?}");
    assert_eq!(attempts(&status), Some(MOST_ATTEMPTS), "busy is retried as often as the route allows: {status:?}");
    assert_eq!(retries().await[0], before + u64::from(MOST_ATTEMPTS - 1), "Envoy's retry counter");
    println!("a spent budget: 1 attempt; busy on every replica: {MOST_ATTEMPTS} attempts, then answered busy");
}
