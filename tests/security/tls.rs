//! TLS and mTLS against a real server: the right CA works (the library's client, and grpcurl
//! with `-cacert`); a plaintext client fails cleanly and leaves one log line; a certificate
//! from another CA and an expired one are refused; under mTLS a client without a certificate
//! gets no answer, one with a certificate does.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use npuzzle::client::{Client, ClientError, ClientTls, Credentials, SolveOptions};
use npuzzle::proto;
use tonic::transport::Endpoint;

use crate::certs::{Authority, Files};
use crate::process::{Process, tool_from_env};

/// A TLS server with a certificate from `authority` (expired if `expired`), requiring client
/// certificates from `clients` if given, logging into `files`.
fn tls_server(files: &Files, authority: &Authority, expired: bool, clients: Option<&Authority>) -> Process {
    let (cert, key) = authority.issue(expired);
    let cert = files.write("server.pem", &cert);
    let key = files.write("server.key", &key);
    let mut flags = vec!["--tls-cert".to_owned(), path(&cert), "--tls-key".to_owned(), path(&key)];
    if let Some(clients) = clients {
        flags.extend(["--tls-client-ca".to_owned(), path(&files.write("clients.pem", &clients.pem))]);
    }
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    Process::server_logged(&flags, &files.dir().join("server.log"))
}

fn path(path: &Path) -> String {
    path.to_str().expect("a UTF-8 path").to_owned()
}

/// One 3×3 call over TLS to `server`, trusting `ca`, with `identity` if given.
async fn solve(server: &Process, ca: &str, identity: Option<(String, String)>) -> Result<proto::Solution, ClientError> {
    let tls = ClientTls {
        ca_pem: Some(ca.as_bytes().to_vec()),
        identity_pem: identity.map(|(cert, key)| (cert.into_bytes(), key.into_bytes())),
        server_name: Some("localhost".to_owned()),
    };
    let endpoint = Endpoint::from_shared(format!("https://{}", server.address)).expect("a URI");
    let credentials = Credentials { tls: Some(tls), token: None };
    let client = Client::connect_with(endpoint, credentials).await?.with_deadline(Some(Duration::from_secs(5)));
    let board = npuzzle::text::parse_board("3\n0 1 3\n4 2 5\n7 8 6\n").expect("a board");
    client.solve(&board, SolveOptions::default()).await
}

#[tokio::test]
async fn the_right_ca_is_trusted_by_the_client_and_by_grpcurl() {
    let (files, ca) = (Files::new(), Authority::new("npuzzle test CA"));
    let server = tls_server(&files, &ca, false, None);
    let solution = solve(&server, &ca.pem, None).await.expect("a call over TLS");
    assert_eq!(solution.moves, 4);
    println!("TLS with the right CA: answered, {} moves", solution.moves);
    let Some(grpcurl) = tool_from_env("GRPCURL", "grpcurl") else { return };
    let ca_path = files.write("ca.pem", &ca.pem);
    let output = Command::new(grpcurl)
        .args([
            "-cacert",
            &path(&ca_path),
            "-servername",
            "localhost",
            "-max-time",
            "30",
            &server.address.to_string(),
            "grpc.health.v1.Health/Check",
        ])
        .output()
        .expect("grpcurl runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "grpcurl -cacert failed: {}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("SERVING"), "{stdout}");
    println!("grpcurl -cacert: {}", stdout.split_whitespace().collect::<Vec<_>>().join(" "));
}

#[tokio::test]
async fn a_plaintext_client_fails_cleanly_and_leaves_one_log_line() {
    let (files, ca) = (Files::new(), Authority::new("npuzzle test CA"));
    let server = tls_server(&files, &ca, false, None);
    let board = npuzzle::text::parse_board("3\n0 1 3\n4 2 5\n7 8 6\n").expect("a board");
    let failed = match Client::connect(&server.url()).await {
        Ok(client) => client.with_deadline(Some(Duration::from_secs(5))).solve(&board, SolveOptions::default()).await,
        Err(error) => Err(error),
    };
    let error = failed.expect_err("plaintext against TLS fails");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let log = std::fs::read_to_string(files.dir().join("server.log")).expect("the server's log");
    let lines: Vec<&str> = log.lines().filter(|line| line.contains("TLS handshake failed")).collect();
    assert_eq!(lines.len(), 1, "one log line for the plaintext client:\n{log}");
    println!("plaintext against TLS: the client got {error}; the server logged: {}", lines[0]);
}

#[tokio::test]
async fn a_certificate_from_another_ca_or_expired_is_refused() {
    let (files, ca) = (Files::new(), Authority::new("npuzzle test CA"));
    let server = tls_server(&files, &ca, false, None);
    let other = Authority::new("another CA");
    let error = solve(&server, &other.pem, None).await.expect_err("another CA's certificate is refused");
    println!("a server certificate from another CA: {error}");

    let expired_files = Files::new();
    let expired = tls_server(&expired_files, &ca, true, None);
    let error = solve(&expired, &ca.pem, None).await.expect_err("an expired certificate is refused");
    println!("an expired server certificate: {error}");
}

#[tokio::test]
async fn mtls_refuses_a_client_without_a_certificate() {
    let (files, ca, clients) = (Files::new(), Authority::new("npuzzle test CA"), Authority::new("client CA"));
    let server = tls_server(&files, &ca, false, Some(&clients));
    // With TLS 1.3 the client finishes its handshake before the server checks it: the
    // refusal shows on the call.
    let error = solve(&server, &ca.pem, None).await.expect_err("a client without a certificate gets no answer");
    println!("mTLS without a client certificate: {error}");
    let stranger = Authority::new("a stranger's CA").issue(false);
    let error = solve(&server, &ca.pem, Some(stranger)).await.expect_err("a certificate from another CA");
    println!("mTLS with a client certificate from another CA: {error}");
    let solution = solve(&server, &ca.pem, Some(clients.issue(false))).await.expect("a client with a certificate");
    assert_eq!(solution.moves, 4);
}
