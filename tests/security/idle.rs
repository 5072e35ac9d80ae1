//! Connections that hold a descriptor and send nothing: 500 that never send a byte are all
//! closed by the handshake timeout, while new clients are still served; one that sends its
//! preface and then no call is closed by the idle timeout; past `--max-connections`, a
//! connection is closed at once while those under the cap are served. The timeouts are shortened here
//! (2 s and 3 s; 10 s and 5 minutes by default) so that the test is quick.

use std::time::{Duration, Instant};

use npuzzle::client::{Client, SolveOptions};
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;
use tokio::task::JoinSet;

use crate::frames::RawConnection;
use crate::harness::Target;

const FLAGS: [&str; 4] = ["--handshake-timeout", "2s", "--idle-timeout", "3s"];

/// Reads `stream` until the server closes it; how long that took from `opened`.
async fn until_closed(mut stream: TcpStream, opened: Instant) -> Duration {
    let mut buffer = [0u8; 256];
    while let Ok(read) = stream.read(&mut buffer).await {
        if read == 0 {
            break;
        }
    }
    opened.elapsed()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_hundred_silent_connections_are_closed_while_new_clients_are_served() {
    let mut target = Target::start(&FLAGS);
    let address = target.server.address;
    target
        .under_attack("500 silent connections", async move {
            let opened = Instant::now();
            let mut silent = JoinSet::new();
            for _ in 0..500 {
                let stream = TcpStream::connect(address).await.expect("connects");
                silent.spawn(until_closed(stream, opened));
            }
            // Meanwhile, new clients: a new connection and a call each, every 200 ms.
            let url = format!("http://{address}");
            let board = npuzzle::text::parse_board("3\n0 1 3\n4 2 5\n7 8 6\n").expect("a board");
            let mut served = 0;
            while opened.elapsed() < Duration::from_secs(2) {
                let client = Client::connect(&url).await.expect("a new client connects");
                client.solve(&board, SolveOptions::default()).await.expect("a new client is served");
                served += 1;
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            let mut last = Duration::ZERO;
            let deadline = Duration::from_secs(10);
            while let Some(closed) = tokio::time::timeout(deadline, silent.join_next()).await.expect("closed in 10 s") {
                last = last.max(closed.expect("the reader ran"));
            }
            assert!(last <= deadline, "the last silent connection closed after {last:?}");
            format!(
                "all 500 closed by the server, the last {:.2} s after opening; {served} new clients served meanwhile",
                last.as_secs_f64()
            )
        })
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_idle_after_its_preface_is_closed_at_the_idle_timeout() {
    let mut target = Target::start(&FLAGS);
    let address = target.server.address;
    target
        .under_attack("idle after the preface", async move {
            let opened = Instant::now();
            let mut attacker = RawConnection::open(address).await;
            let received = attacker.receive(Duration::from_secs(8)).await;
            let took = opened.elapsed();
            assert!(received.closed, "an idle connection was kept: {}", received.summary());
            assert!(took >= Duration::from_millis(2900), "closed before the idle timeout: {took:?}");
            format!("{}, {:.2} s after opening", received.summary(), took.as_secs_f64())
        })
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_past_the_cap_is_closed_at_once() {
    let mut target = Target::start(&["--max-connections", "3"]);
    let address = target.server.address;
    target
        .under_attack("past --max-connections", async move {
            // The normal client takes one of the three places first.
            tokio::time::sleep(Duration::from_millis(300)).await;
            let opened = Instant::now();
            let _held = [
                TcpStream::connect(address).await.expect("connects"),
                TcpStream::connect(address).await.expect("connects"),
            ];
            let over = TcpStream::connect(address).await.expect("the kernel completes the handshake");
            let closed = tokio::time::timeout(Duration::from_secs(1), until_closed(over, opened))
                .await
                .expect("the connection past the cap is closed at once");
            format!("the 4th connection closed {:.1} ms after opening, 2 silent ones held", closed.as_secs_f64() * 1e3)
        })
        .await;
}
