//! Attacks on one HTTP/2 connection: more streams than the cap, a rapid-reset flood, a header
//! block past the cap, a message that declares 2 GB. Each is answered on that connection
//! alone, while the normal client on its own connection is served as usual.

use std::time::Duration;

use h2::Reason;
use http::Request;
use tokio::net::TcpStream;

use crate::frames::{RawConnection, error_name};
use crate::harness::{Target, cpu_time};

const SOLVE: &str = "/npuzzle.v1.SolverService/Solve";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_thousand_streams_on_one_connection_are_capped() {
    let mut target = Target::start(&[]);
    let address = target.server.address;
    target
        .under_attack("2,000 streams", async move {
            let mut attacker = RawConnection::open(address).await;
            // Odd stream ids, each a request whose body never comes: the server must hold
            // each one it accepts.
            for index in 0..2000u32 {
                attacker.request(2 * index + 1, SOLVE, &[], false).await;
            }
            let received = attacker.receive(Duration::from_secs(2)).await;
            let capped = received.refused() >= 1900 || received.goaway.is_some();
            assert!(capped, "streams beyond the cap of 100 were not refused: {}", received.summary());
            assert!(received.refused() <= 1900, "the server refused streams under its cap: {}", received.summary());
            received.summary()
        })
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rapid_reset_flood_ends_in_a_goaway_and_the_cpu_settles() {
    let mut target = Target::start(&[]);
    let (address, pid) = (target.server.address, target.server.pid());
    target
        .under_attack("rapid reset", async move {
            let tcp = TcpStream::connect(address).await.expect("connects");
            let (mut client, connection) = h2::client::handshake(tcp).await.expect("an HTTP/2 handshake");
            let connection = tokio::spawn(connection);
            let (mut sent, mut refused) = (0, None);
            for _ in 0..10_000 {
                client = match client.ready().await {
                    Ok(ready) => ready,
                    Err(error) => {
                        refused = error.reason();
                        break;
                    }
                };
                let request = Request::post(format!("http://localhost{SOLVE}"))
                    .header("content-type", "application/grpc")
                    .body(())
                    .expect("a request");
                match client.send_request(request, false) {
                    Ok((_response, mut stream)) => stream.send_reset(Reason::CANCEL),
                    Err(error) => {
                        refused = error.reason();
                        break;
                    }
                }
                sent += 1;
            }
            // The GOAWAY's reason, as the connection or the last request saw it. The server closes
            // the connection right after its GOAWAY, with the flood's frames still unread: the
            // kernel then resets it, and the reset may reach the client before it has read the
            // GOAWAY, which is then lost. Either way the server ended the connection mid-flood.
            let ended = tokio::time::timeout(Duration::from_secs(5), connection).await;
            let (reason, io_error) = match ended {
                Ok(Ok(Err(error))) => (error.reason().or(refused), error.get_io().map(ToString::to_string)),
                _ => (refused, None),
            };
            let seen = match (reason, io_error) {
                (Some(Reason::ENHANCE_YOUR_CALM), _) => format!("GOAWAY {}", error_name(11)),
                (None, Some(io)) if sent < 10_000 => {
                    format!("the connection reset ({io}), its GOAWAY lost to the reset")
                }
                other => panic!("the flood was not cut off ({sent} resets sent): {other:?}"),
            };
            tokio::time::sleep(Duration::from_secs(1)).await;
            // The normal client's 3×3 calls still run: they take a few percent of a core. On a
            // machine shared with the other tests the server may finish the flood's work late,
            // so the CPU must settle within a few half-second windows, not the first.
            let window = Duration::from_millis(500);
            let mut busy = Vec::new();
            while busy.len() < 6 && busy.last().is_none_or(|&share| share >= 0.25) {
                let cpu_before = cpu_time(pid);
                tokio::time::sleep(window).await;
                busy.push((cpu_time(pid) - cpu_before).as_secs_f64() / window.as_secs_f64());
            }
            let settled = busy.last().copied().unwrap_or(1.0);
            assert!(settled < 0.25, "3 s after the flood the server still uses a core's {busy:?}");
            format!(
                "{seen} after {sent} of 10,000 HEADERS+RST_STREAM; server CPU 1 s later {:.1} % of a core \
                 (after {} half-second windows)",
                settled * 100.0,
                busy.len()
            )
        })
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_one_megabyte_header_block_is_refused() {
    let mut target = Target::start(&[]);
    let address = target.server.address;
    target
        .under_attack("1 MB header block", async move {
            let mut attacker = RawConnection::open(address).await;
            let big = "x".repeat(1 << 20);
            attacker.request(1, SOLVE, &[("x-padding", &big)], true).await;
            let received = attacker.receive(Duration::from_secs(2)).await;
            let refused = received.goaway.is_some() || !received.resets.is_empty() || received.closed;
            assert!(refused, "a 1 MB header block was taken: {}", received.summary());
            received.summary()
        })
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_declaring_two_gigabytes_is_refused_before_allocation() {
    let mut target = Target::start(&[]);
    let address = target.server.address;
    target
        .under_attack("2 GB message", async move {
            let tcp = TcpStream::connect(address).await.expect("connects");
            let (client, connection) = h2::client::handshake(tcp).await.expect("an HTTP/2 handshake");
            tokio::spawn(connection);
            let mut client = client.ready().await.expect("ready");
            let request = Request::post(format!("http://localhost{SOLVE}"))
                .header("content-type", "application/grpc")
                .header("te", "trailers")
                .body(())
                .expect("a request");
            let (response, mut body) = client.send_request(request, false).expect("sends");
            // The gRPC frame header: not compressed, then 2^31 bytes to come; 1 KiB of them.
            let mut message = vec![0, 0x80, 0, 0, 0];
            message.resize(5 + 1024, 7);
            body.send_data(message.into(), false).expect("sends the start of the message");
            let response = tokio::time::timeout(Duration::from_secs(5), response)
                .await
                .expect("answered within 5 s")
                .expect("a response");
            let headers = response.headers().clone();
            let mut body = response.into_body();
            let trailers = tokio::time::timeout(Duration::from_secs(5), body.trailers()).await;
            let status = headers
                .get("grpc-status")
                .cloned()
                .or_else(|| trailers.ok().and_then(Result::ok).flatten().and_then(|t| t.get("grpc-status").cloned()));
            let status = status.map(|value| value.to_str().unwrap_or_default().to_owned());
            assert!(status.as_deref().is_some_and(|code| code != "0"), "the 2 GB message was not refused: {status:?}");
            format!("grpc-status {} without the message being read", status.unwrap_or_default())
        })
        .await;
}
