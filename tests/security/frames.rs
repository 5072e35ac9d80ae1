//! Raw HTTP/2 frames over a TCP connection, for the attacks no well-behaved client library
//! sends: more streams than the server allows, and a header block past its limit. Headers are
//! HPACK literals without indexing (RFC 7541 §6.2.2), which every decoder must accept.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
const HEADERS: u8 = 0x1;
const RST_STREAM: u8 = 0x3;
const SETTINGS: u8 = 0x4;
const GOAWAY: u8 = 0x7;
const CONTINUATION: u8 = 0x9;
const END_STREAM: u8 = 0x1;
const END_HEADERS: u8 = 0x4;
const ACK: u8 = 0x1;
/// The largest frame payload a peer must accept (SETTINGS_MAX_FRAME_SIZE's default).
const MAX_FRAME: usize = 16_384;

/// An HTTP/2 connection driven frame by frame.
pub struct RawConnection(TcpStream);

/// What the server sent on a raw connection.
#[derive(Debug, Default)]
pub struct Received {
    /// RST_STREAM frames, by error code.
    pub resets: Vec<(u32, u32)>,
    /// The GOAWAY's error code, if one came.
    pub goaway: Option<u32>,
    /// HEADERS frames (responses).
    pub headers: usize,
    /// Whether the server closed the connection.
    pub closed: bool,
}

impl Received {
    /// RST_STREAM frames with REFUSED_STREAM (7).
    pub fn refused(&self) -> usize {
        self.resets.iter().filter(|(_, code)| *code == 7).count()
    }

    /// A line for the report.
    pub fn summary(&self) -> String {
        format!(
            "{} RST_STREAM ({} REFUSED_STREAM), {} HEADERS, GOAWAY {}, connection {}",
            self.resets.len(),
            self.refused(),
            self.headers,
            self.goaway.map_or("none".to_owned(), |code| format!("{} ({code})", error_name(code))),
            if self.closed { "closed" } else { "open" }
        )
    }
}

/// An HTTP/2 error code's name.
pub fn error_name(code: u32) -> &'static str {
    match code {
        0 => "NO_ERROR",
        1 => "PROTOCOL_ERROR",
        2 => "INTERNAL_ERROR",
        6 => "FRAME_SIZE_ERROR",
        7 => "REFUSED_STREAM",
        8 => "CANCEL",
        9 => "COMPRESSION_ERROR",
        11 => "ENHANCE_YOUR_CALM",
        _ => "other",
    }
}

impl RawConnection {
    /// Connects to `address` and sends the preface and an empty SETTINGS.
    pub async fn open(address: SocketAddr) -> RawConnection {
        let mut stream = TcpStream::connect(address).await.expect("connects");
        stream.write_all(PREFACE).await.expect("sends the preface");
        let mut connection = RawConnection(stream);
        connection.frame(SETTINGS, 0, 0, &[]).await;
        connection
    }

    async fn frame(&mut self, kind: u8, flags: u8, stream: u32, payload: &[u8]) {
        let length = u32::try_from(payload.len()).expect("a frame's length");
        let mut frame = Vec::with_capacity(9 + payload.len());
        frame.extend_from_slice(&length.to_be_bytes()[1..]);
        frame.extend_from_slice(&[kind, flags]);
        frame.extend_from_slice(&stream.to_be_bytes());
        frame.extend_from_slice(payload);
        // The server may have closed the connection already: what it sent says why.
        let _ = self.0.write_all(&frame).await;
    }

    /// Opens stream `stream` with a gRPC request for `path`, headers `extra` and no body yet;
    /// a block beyond one frame goes on in CONTINUATION frames.
    pub async fn request(&mut self, stream: u32, path: &str, extra: &[(&str, &str)], end_stream: bool) {
        let mut block = Vec::new();
        let fixed = [
            (":method", "POST"),
            (":scheme", "http"),
            (":path", path),
            (":authority", "localhost"),
            ("content-type", "application/grpc"),
            ("te", "trailers"),
        ];
        for (name, value) in fixed.iter().chain(extra) {
            literal(&mut block, name, value);
        }
        let mut chunks = block.chunks(MAX_FRAME).peekable();
        let mut kind = HEADERS;
        while let Some(chunk) = chunks.next() {
            let mut flags = if chunks.peek().is_none() { END_HEADERS } else { 0 };
            if kind == HEADERS && end_stream {
                flags |= END_STREAM;
            }
            self.frame(kind, flags, stream, chunk).await;
            kind = CONTINUATION;
        }
    }

    /// Reads what the server sends until it sends a GOAWAY, closes, or `quiet` passes without a
    /// frame (acknowledging its SETTINGS).
    pub async fn receive(&mut self, quiet: Duration) -> Received {
        let mut received = Received::default();
        loop {
            let mut header = [0u8; 9];
            match tokio::time::timeout(quiet, self.0.read_exact(&mut header)).await {
                Err(_) => return received,
                Ok(Err(_)) => {
                    received.closed = true;
                    return received;
                }
                Ok(Ok(_)) => {}
            }
            let length = u32::from_be_bytes([0, header[0], header[1], header[2]]) as usize;
            let (kind, flags) = (header[3], header[4]);
            let stream = u32::from_be_bytes([header[5], header[6], header[7], header[8]]) & 0x7fff_ffff;
            let mut payload = vec![0; length];
            if self.0.read_exact(&mut payload).await.is_err() {
                received.closed = true;
                return received;
            }
            let code = |at: usize| payload.get(at..at + 4).map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
            match kind {
                RST_STREAM => received.resets.push((stream, code(0).unwrap_or(0))),
                GOAWAY => {
                    received.goaway = code(4);
                    received.closed = self.0.read(&mut [0; 64]).await.map_or(true, |read| read == 0);
                    return received;
                }
                HEADERS => received.headers += 1,
                SETTINGS if flags & ACK == 0 => self.frame(SETTINGS, ACK, 0, &[]).await,
                _ => {}
            }
        }
    }
}

/// Appends a literal header field without indexing, with a new name.
fn literal(block: &mut Vec<u8>, name: &str, value: &str) {
    block.push(0);
    integer(block, name.len(), 7, 0);
    block.extend_from_slice(name.as_bytes());
    integer(block, value.len(), 7, 0);
    block.extend_from_slice(value.as_bytes());
}

/// Appends `value` as an HPACK integer with a `prefix`-bit prefix (RFC 7541 §5.1).
fn integer(block: &mut Vec<u8>, value: usize, prefix: u32, first: u8) {
    let max = (1usize << prefix) - 1;
    if value < max {
        block.push(first | value as u8);
        return;
    }
    block.push(first | max as u8);
    let mut rest = value - max;
    while rest >= 128 {
        block.push((rest % 128 + 128) as u8);
        rest /= 128;
    }
    block.push(rest as u8);
}
