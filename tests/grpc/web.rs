//! gRPC-Web and the page on the gRPC port: an HTTP/1.1 gRPC-Web call answered while an HTTP/2
//! gRPC stream runs on the same port, the page served to a plain `GET /`, CORS only for the
//! origins allowed, a gRPC-Web call refused without the access token when the server has
//! tokens, and with the web turned off, HTTP/1.1 refused as before.

use std::time::Duration;

use npuzzle::proto::{self, solve_stream_response::Event};
use npuzzle::server::Config;
use prost::Message;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::common::{PUZZLE04, TestServer, board, config, solve_request, start};

/// A gRPC-Web frame's flag for the trailers, which end the response.
const TRAILERS_FLAG: u8 = 0x80;

/// Sends `request` over a fresh HTTP/1.1 connection that the server closes after its answer,
/// and returns the answer's head (lowercased) and its body, de-chunked.
async fn http1(server: &TestServer, request: &[u8]) -> (String, Vec<u8>) {
    let mut stream = TcpStream::connect(server.address).await.expect("connects");
    stream.write_all(request).await.expect("sends the request");
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer))
        .await
        .expect("answered within 10 s")
        .expect("reads the answer");
    let split = answer.windows(4).position(|w| w == b"\r\n\r\n").expect("a complete head");
    let head = String::from_utf8_lossy(&answer[..split]).to_lowercase();
    let body = &answer[split + 4..];
    let body = if head.contains("transfer-encoding: chunked") { dechunk(body) } else { body.to_vec() };
    (head, body)
}

/// The bytes of an HTTP/1.1 chunked body.
fn dechunk(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let line = body.windows(2).position(|w| w == b"\r\n").expect("a chunk size line");
        let size = usize::from_str_radix(std::str::from_utf8(&body[..line]).expect("ASCII").trim(), 16)
            .expect("a hexadecimal chunk size");
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&body[line + 2..line + 2 + size]);
        body = &body[line + 2 + size + 2..];
    }
}

/// A unary gRPC-Web `Solve` of `message` as an HTTP/1.1 POST, from `origin` if given.
fn grpc_web_post(server: &TestServer, message: &proto::SolveRequest) -> Vec<u8> {
    let payload = message.encode_to_vec();
    let mut frame = vec![0];
    frame.extend_from_slice(&u32::try_from(payload.len()).expect("a small message").to_be_bytes());
    frame.extend_from_slice(&payload);
    let mut request = format!(
        "POST /npuzzle.v1.SolverService/Solve HTTP/1.1\r\nHost: {}\r\nContent-Type: application/grpc-web+proto\r\n\
         X-Grpc-Web: 1\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        server.address,
        frame.len()
    )
    .into_bytes();
    request.extend_from_slice(&frame);
    request
}

/// The frames of a gRPC-Web body: (flag, payload).
fn frames(mut body: &[u8]) -> Vec<(u8, Vec<u8>)> {
    let mut frames = Vec::new();
    while !body.is_empty() {
        let length = u32::from_be_bytes(body[1..5].try_into().expect("4 bytes")) as usize;
        frames.push((body[0], body[5..5 + length].to_vec()));
        body = &body[5 + length..];
    }
    frames
}

#[tokio::test]
async fn grpc_web_over_http1_and_grpc_over_http2_share_the_port() {
    let server = start(config()).await;
    // An HTTP/2 gRPC stream, running throughout.
    let mut stream = server.running_hard_stream().await;

    let request = solve_request(board(3, &PUZZLE04), None);
    let (head, body) = http1(&server, &grpc_web_post(&server, &request)).await;
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("content-type: application/grpc-web+proto"), "{head}");
    let frames = frames(&body);
    assert_eq!(frames.len(), 2, "a message, then the trailers");
    let response = proto::SolveResponse::decode(frames[0].1.as_slice()).expect("a SolveResponse");
    assert_eq!(response.solution.expect("a solution").moves, 4);
    assert_eq!(frames[1].0, TRAILERS_FLAG);
    let trailers = String::from_utf8_lossy(&frames[1].1).to_lowercase();
    assert!(trailers.contains("grpc-status:0"), "{trailers}");

    // The HTTP/2 stream kept going beside it.
    let message = stream.message().await.expect("the HTTP/2 stream is healthy").expect("still open");
    assert!(matches!(message.event, Some(Event::Progress(_))));
}

#[tokio::test]
async fn the_page_is_served_to_a_plain_get() {
    let server = start(config()).await;
    let get = |path: &str| format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    let (head, body) = http1(&server, get("/?puzzle=3%0A1%202%203").as_bytes()).await;
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("content-type: text/html"), "{head}");
    assert!(String::from_utf8_lossy(&body).contains("<textarea id=\"puzzle\""));
    let (head, body) = http1(&server, get("/app.js").as_bytes()).await;
    assert!(head.contains("content-type: text/javascript"), "{head}");
    assert!(body.len() > 1000);
}

#[tokio::test]
async fn cors_answers_only_the_allowed_origins() {
    let allowed = "http://allowed.example";
    let server = start(Config { allowed_origins: vec![allowed.parse().expect("a header value")], ..config() }).await;
    let preflight = |origin: &str| {
        format!(
            "OPTIONS /npuzzle.v1.SolverService/SolveStream HTTP/1.1\r\nHost: x\r\nOrigin: {origin}\r\n\
             Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type,x-grpc-web\r\n\
             Connection: close\r\n\r\n"
        )
    };
    let (head, _) = http1(&server, preflight(allowed).as_bytes()).await;
    assert!(head.contains(&format!("access-control-allow-origin: {allowed}")), "{head}");
    assert!(head.contains("x-grpc-web"), "{head}");
    let (head, _) = http1(&server, preflight("http://other.example").as_bytes()).await;
    assert!(!head.contains("access-control-allow-origin"), "{head}");

    let mut post = grpc_web_post(&server, &solve_request(board(3, &PUZZLE04), None));
    let at = post.windows(2).position(|w| w == b"\r\n").expect("a request line") + 2;
    post.splice(at..at, format!("Origin: {allowed}\r\n").into_bytes());
    let (head, _) = http1(&server, &post).await;
    assert!(head.contains("access-control-expose-headers"), "{head}");
    assert!(head.contains("grpc-status") && head.contains("npuzzle-busy"), "{head}");
}

#[tokio::test]
async fn without_the_web_http1_is_not_served() {
    let server = start(Config { web: false, ..config() }).await;
    let mut stream = TcpStream::connect(server.address).await.expect("connects");
    stream.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await.expect("sends");
    let mut answer = Vec::new();
    // The HTTP/2-only server reads no HTTP/1.1 request: it closes the connection unanswered.
    let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer)).await.expect("closed");
    assert!(!answer.starts_with(b"HTTP/1.1 200"), "{}", String::from_utf8_lossy(&answer));
    // HTTP/2 gRPC as ever.
    let solved = server.client().await.solve(solve_request(board(3, &PUZZLE04), None)).await.expect("solves");
    assert_eq!(solved.into_inner().solution.expect("a solution").moves, 4);
}

#[tokio::test]
async fn grpc_web_calls_need_the_token_too() {
    let tokens = npuzzle::server::auth::AccessTokens::new(["s3cret-token-for-the-web-test"]);
    let server = start(Config { access_tokens: Some(tokens), ..config() }).await;
    let request = solve_request(board(3, &PUZZLE04), None);
    let (head, body) = http1(&server, &grpc_web_post(&server, &request)).await;
    let answer = format!("{head}\n{}", String::from_utf8_lossy(&body).to_lowercase());
    assert!(answer.contains("grpc-status: 16") || answer.contains("grpc-status:16"), "{answer}");
    assert!(!answer.contains("minimum"), "no answer without a token: {answer}");
}
