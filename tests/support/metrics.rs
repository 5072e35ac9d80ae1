//! A server's Prometheus text, as the tests that run `npuzzle-server --metrics-listen` read it:
//! scraped over plain HTTP, and a sample read from it by name and labels.

#![allow(dead_code)] // Each test crate uses its own subset of these helpers.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::process::STARTUP_TIMEOUT;

/// The body of `GET /metrics` at `address`.
pub fn scrape(address: SocketAddr) -> String {
    let mut stream = TcpStream::connect(address).expect("a connection to the metrics endpoint");
    stream.set_read_timeout(Some(Duration::from_secs(10))).expect("a read timeout");
    write!(stream, "GET /metrics HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n").expect("a request");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("a response");
    let (head, body) = response.split_once("\r\n\r\n").expect("HTTP headers and a body");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    body.to_owned()
}

/// The value of the sample of `name` whose labels include every one of `labels`.
pub fn sample(text: &str, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    text.lines().filter(|line| !line.starts_with('#')).find_map(|line| {
        let (series, value) = line.rsplit_once(' ')?;
        let (metric, rest) = series.split_once('{').unwrap_or((series, ""));
        let matches = metric == name && labels.iter().all(|(key, value)| rest.contains(&format!("{key}=\"{value}\"")));
        if matches { value.parse().ok() } else { None }
    })
}

/// Scrapes until `name{labels}` reads `wanted`, or fails after the startup timeout.
pub fn wait_for_sample(address: SocketAddr, name: &str, labels: &[(&str, &str)], wanted: f64) -> String {
    let started = Instant::now();
    loop {
        let text = scrape(address);
        if sample(&text, name, labels) == Some(wanted) {
            return text;
        }
        assert!(started.elapsed() < STARTUP_TIMEOUT, "{name}{labels:?} never read {wanted}:\n{text}");
        sleep(Duration::from_millis(100));
    }
}
