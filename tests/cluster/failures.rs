//! What a cluster loses when something fails: nothing. A worker killed mid-iteration, a call
//! cancelled, a coordinator killed, NATS restarted mid-search, and a replica with the wrong
//! credentials or, over TLS, without a client certificate, each with what the issue promises.

use std::time::Duration;

use tonic::Code;

use crate::certs::{Authority, Files};
use crate::harness::{
    LONG_BOARD, LONG_MOVES, Nats, PASSWORD, QUICK_BOARD, QUICK_MOVES, Replica, USER, checked_moves, client,
    one_at_a_time, request, solve, two_replicas,
};

/// Long enough for a search of [`LONG_BOARD`] to be spread over both replicas.
const INTO_THE_SEARCH: Duration = Duration::from_secs(2);

/// The most a search here may take, whatever fails: past it the search hangs.
const NEVER_HANGS: Duration = Duration::from_secs(120);

/// Starts a search of [`LONG_BOARD`] through `replica`, and waits until it is spread.
async fn long_search(replica: &Replica) -> tokio::task::JoinHandle<Result<usize, tonic::Status>> {
    let mut client = client(replica).await;
    let call = tokio::spawn(async move {
        let solution = client.solve(request(&LONG_BOARD)).await?.into_inner().solution.expect("a solution");
        Ok(checked_moves(&solution))
    });
    tokio::time::sleep(INTO_THE_SEARCH).await;
    call
}

/// Waits for `call`'s answer, at most [`NEVER_HANGS`].
async fn answer(call: tokio::task::JoinHandle<Result<usize, tonic::Status>>) -> Result<usize, tonic::Status> {
    tokio::time::timeout(NEVER_HANGS, call).await.expect("the search hung").expect("the call's task")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_killed_mid_iteration_costs_no_optimal_answer() {
    let _one = one_at_a_time().await;
    let Some(nats) = Nats::start() else { return };
    let (a, b) = two_replicas(&nats);
    let call = long_search(&a).await;
    assert!(b.busy_within(Duration::from_secs(5)), "B runs none of A's pieces");
    b.process.signal("KILL");
    assert_eq!(answer(call).await.expect("an answer"), LONG_MOVES);
    println!(
        "A after B's death:\n{}",
        a.scrape().lines().filter(|line| line.contains("cluster")).collect::<Vec<_>>().join("\n")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_call_stops_its_pieces_on_every_replica() {
    let _one = one_at_a_time().await;
    let Some(nats) = Nats::start() else { return };
    let (a, b) = two_replicas(&nats);
    let call = long_search(&a).await;
    assert!(b.busy_within(Duration::from_secs(5)), "B runs none of A's pieces");
    call.abort();
    let _ = call.await;
    assert!(a.idle_within(Duration::from_secs(2)), "A still searches 2 s after the cancel");
    assert!(b.idle_within(Duration::from_secs(2)), "B still runs A's pieces 2 s after the cancel");
    // The pieces left are purged or dropped: none runs later.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(b.metric("npuzzle_searches_running", &[]), 0.0, "B ran a piece of the ended search");
    println!("B dropped {} pieces", b.metric("npuzzle_cluster_pieces_total", &[("outcome", "dropped")]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_coordinator_fails_its_call_unavailable_and_leaves_the_others_idle() {
    let _one = one_at_a_time().await;
    let Some(nats) = Nats::start() else { return };
    let (a, b) = two_replicas(&nats);
    let call = long_search(&a).await;
    assert!(b.busy_within(Duration::from_secs(5)), "B runs none of A's pieces");
    a.process.signal("KILL");
    let status = answer(call).await.expect_err("no answer from a killed replica");
    // Behind Envoy a dead upstream is UNAVAILABLE, which its retry policy retries; a direct
    // tonic client sees the broken connection as a transport error.
    let transport = std::error::Error::source(&status).is_some_and(|source| source.is::<tonic::transport::Error>());
    assert!(status.code() == Code::Unavailable || transport, "{status:?}");
    assert!(b.idle_within(Duration::from_secs(10)), "B still runs the dead coordinator's pieces after 10 s");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nats_restart_mid_search_leaves_the_answer_optimal_or_a_clear_error() {
    let _one = one_at_a_time().await;
    let Some(mut nats) = Nats::start() else { return };
    let (a, _b) = two_replicas(&nats);
    let call = long_search(&a).await;
    nats.kill();
    tokio::time::sleep(Duration::from_millis(500)).await;
    nats.restart();
    let answered = answer(call).await;
    println!("after the NATS restart: {answered:?}");
    match answered {
        Ok(moves) => assert_eq!(moves, LONG_MOVES),
        Err(status) => {
            assert!(matches!(status.code(), Code::Unavailable | Code::Internal), "{status:?}");
            assert!(!status.message().is_empty());
        }
    }
    assert!(a.idle_within(Duration::from_secs(10)), "A still searches after answering");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_with_wrong_credentials_is_refused_and_serves_alone() {
    let _one = one_at_a_time().await;
    let Some(nats) = Nats::with_user() else { return };
    let url = nats.url();
    let flags = ["--cluster", &url, "--cluster-user", USER];
    let right = Replica::with_flags(&flags, &[("NPUZZLE_CLUSTER_PASSWORD", PASSWORD)]);
    crate::metrics::wait_for_sample(right.metrics, "npuzzle_cluster_connected", &[], 1.0);
    let mut wrong = Replica::with_flags(&flags, &[("NPUZZLE_CLUSTER_PASSWORD", "not-the-password")]);
    wrong.process.wait_for_log(&wrong.log, "cannot join the cluster");
    assert!(wrong.log().to_lowercase().contains("authorization"), "{}", wrong.log());
    assert_eq!(wrong.metric("npuzzle_cluster_connected", &[]), 0.0);
    assert_eq!(solve(&wrong, &QUICK_BOARD).await.expect("an answer alone"), QUICK_MOVES);
    let mut anonymous = Replica::with_flags(&["--cluster", &url], &[]);
    anonymous.process.wait_for_log(&anonymous.log, "cannot join the cluster");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_tls_a_replica_with_a_certificate_joins_and_one_without_is_refused() {
    let _one = one_at_a_time().await;
    let authority = Authority::new("npuzzle test NATS CA");
    let files = Files::new();
    let ca = files.write("ca.pem", &authority.pem);
    let (server_certificate, server_key) = authority.issue(false);
    let server = [files.write("nats.pem", &server_certificate), files.write("nats.key", &server_key)];
    let (client_certificate, client_key) = authority.issue(false);
    let (client_certificate, client_key) =
        (files.write("replica.pem", &client_certificate), files.write("replica.key", &client_key));
    let Some(nats) = Nats::with_tls(server, ca.clone()) else { return };
    let url = nats.url();
    let (ca, certificate, key) = (path(&ca), path(&client_certificate), path(&client_key));
    let trusted = ["--cluster", &url, "--cluster-tls-ca", ca];
    let mut flags = trusted.to_vec();
    flags.extend_from_slice(&["--cluster-tls-cert", certificate, "--cluster-tls-key", key]);
    let member = Replica::with_flags(&flags, &[]);
    crate::metrics::wait_for_sample(member.metrics, "npuzzle_cluster_connected", &[], 1.0);
    let mut stranger = Replica::with_flags(&trusted, &[]);
    stranger.process.wait_for_log(&stranger.log, "cannot join the cluster");
    assert_eq!(stranger.metric("npuzzle_cluster_connected", &[]), 0.0);
    assert_eq!(solve(&stranger, &QUICK_BOARD).await.expect("an answer alone"), QUICK_MOVES);
}

/// `path` as a flag's value.
fn path(path: &std::path::Path) -> &str {
    path.to_str().expect("a UTF-8 temporary path")
}
