//! Three `npuzzle-server` replicas behind Envoy ([`crate::envoy`]): under load, one replica is
//! killed (SIGKILL) and another stopped (SIGTERM), and every call still gets a right answer and
//! an expected status, because Envoy retries on another replica. The test prints Envoy's retry
//! counters. The calls go over TLS to Envoy and over mTLS from it to the replicas, and a
//! replica answers no client but one with a certificate from the clients' CA, as Envoy's is.

use std::time::Duration;

use npuzzle::client::ClientTls;
use npuzzle::proto::solver_service_client::SolverServiceClient;
use npuzzle::proto::{self, solve_request};

use crate::envoy::{self, Certificates, Envoy, channel, https_url};
use npuzzle::load::{self, Config};

/// A 2×2 call to `url` with `tls`, given 5 s: what failed, if anything (to connect, or the call).
async fn trivial_call(url: &str, tls: Option<ClientTls>) -> Result<(), String> {
    let call = async {
        let mut client = SolverServiceClient::new(channel(url, tls).await.map_err(|error| format!("{error:?}"))?);
        let board = proto::Board { dimension: 2, tiles: vec![1, 2, 3, 0] };
        let request = proto::SolveRequest { puzzle: Some(solve_request::Puzzle::Board(board)), options: None };
        client.solve(request).await.map(drop).map_err(|status| format!("{status:?}"))
    };
    tokio::time::timeout(Duration::from_secs(5), call).await.unwrap_or_else(|_| Err("no answer in 5 s".to_owned()))
}

#[tokio::test]
async fn a_replica_answers_only_a_client_certificate_from_the_clients_ca() {
    let certificates = Certificates::new();
    let replica = envoy::replica(&certificates, &[]);
    let refused = [
        ("plaintext", replica.url(), None),
        ("TLS without a client certificate", https_url(&replica), Some(certificates.client())),
        (
            "a client certificate from the servers' CA",
            https_url(&replica),
            Some(certificates.client_with_certificate(Some(certificates.servers_ca()))),
        ),
    ];
    for (what, url, tls) in refused {
        let error = trivial_call(&url, tls).await.expect_err(what);
        println!("{what}: refused ({error})");
    }
    let envoys = certificates.client_with_certificate(None);
    trivial_call(&https_url(&replica), Some(envoys)).await.expect("a certificate from the clients' CA is answered");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_and_a_stopped_replica_cost_no_call_its_answer() {
    let Some(binary) = Envoy::binary() else { return };
    let flags = ["--max-concurrent-solves", "2", "--drain-timeout-ms", "1000"];
    let certificates = Certificates::new();
    let mut replicas = envoy::replicas(&certificates, &flags);
    let [first, second, third] = &replicas;
    let envoy = Envoy::start(&binary, &certificates, &[first, second, third]).await;

    let config = Config { tls: Some(certificates.client()), ..Config::new(envoy.url(), 32, Duration::from_secs(8)) };
    let load = tokio::spawn(async move { load::run(&config).await });
    tokio::time::sleep(Duration::from_secs(2)).await;
    replicas[0].signal("KILL");
    tokio::time::sleep(Duration::from_secs(2)).await;
    replicas[1].signal("TERM");
    let outcome = load.await.expect("the load finishes").expect("the load runs");
    let stopped = tokio::task::spawn_blocking(move || replicas[1].wait(Duration::from_secs(10))).await.expect("waits");
    assert!(stopped.success(), "the stopped replica exits 0, not {stopped}");

    let names = ["upstream_rq_total", "upstream_rq_retry", "upstream_rq_retry_success", "upstream_rq_retry_overflow"];
    let counts = envoy.counters(&names).await;
    let counters: Vec<String> = names.iter().zip(&counts).map(|(name, count)| format!("{name}={count}")).collect();
    println!("{}\nenvoy: {}", outcome.report, counters.join(" "));
    let tally = &outcome.report.tally;
    assert!(outcome.report.is_clean(), "a call lost its answer to a replica's end:\n{}", outcome.report);
    assert!(tally.count(npuzzle::load::mix::Kind::Fifteen, "OK") > 0, "{}", outcome.report);
    assert!(counts[1] > 0, "the killed replica caused no retry: {counters:?}");
}
