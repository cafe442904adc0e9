//! The web board's side of the server: its page over plain HTTP/1.1 on the gRPC port, and the
//! same services over grpc-web, as a browser reaches them.

mod common;

use common::*;
use pitchmate_proto::v1 as pb;
use prost::Message;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// An HTTP/1.1 answer: status line, headers (names in lower case) and the body, de-chunked.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Sends `head` (and `body`) on a new connection that closes after the answer, and reads it.
async fn http1(address: std::net::SocketAddr, head: &str, body: &[u8]) -> Answer {
    let mut socket = TcpStream::connect(address).await.expect("connect");
    socket.write_all(head.as_bytes()).await.unwrap();
    socket.write_all(body).await.unwrap();
    let mut received = Vec::new();
    socket.read_to_end(&mut received).await.expect("the answer");
    let end = received
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("an HTTP/1.1 head");
    let head = String::from_utf8(received[..end].to_vec()).unwrap();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let mut body = received[end + 4..].to_vec();
    if headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"))
    {
        body = dechunk(&body);
    }
    Answer {
        status,
        headers,
        body,
    }
}

fn dechunk(mut chunked: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    loop {
        let line_end = chunked.windows(2).position(|w| w == b"\r\n").unwrap();
        let size_text = std::str::from_utf8(&chunked[..line_end]).unwrap();
        let size = usize::from_str_radix(size_text.split(';').next().unwrap(), 16).unwrap();
        if size == 0 {
            return body;
        }
        let start = line_end + 2;
        body.extend_from_slice(&chunked[start..start + size]);
        chunked = &chunked[start + size + 2..];
    }
}

/// The frames of a grpc-web body: (flags, payload); flag 0x80 marks the trailers.
fn grpc_web_frames(mut body: &[u8]) -> Vec<(u8, Vec<u8>)> {
    let mut frames = Vec::new();
    while body.len() >= 5 {
        let length = u32::from_be_bytes(body[1..5].try_into().unwrap()) as usize;
        frames.push((body[0], body[5..5 + length].to_vec()));
        body = &body[5 + length..];
    }
    assert!(body.is_empty(), "a partial grpc-web frame");
    frames
}

#[tokio::test]
async fn the_page_and_its_files_are_served_by_get_on_the_grpc_port() {
    let server = start().await;
    let page = http1(
        server.address,
        "GET / HTTP/1.1\r\nHost: board\r\nConnection: close\r\n\r\n",
        b"",
    )
    .await;
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    let html = String::from_utf8(page.body).unwrap();
    assert!(html.contains("app.js"), "the page loads its script: {html}");

    let script = http1(
        server.address,
        "GET /app.js HTTP/1.1\r\nHost: board\r\nConnection: close\r\n\r\n",
        b"",
    )
    .await;
    assert_eq!(script.status, 200);
    assert!(
        script
            .header("content-type")
            .is_some_and(|t| t.starts_with("text/javascript"))
    );
    assert!(!script.body.is_empty());

    let missing = http1(
        server.address,
        "GET /nothing-here HTTP/1.1\r\nHost: board\r\nConnection: close\r\n\r\n",
        b"",
    )
    .await;
    assert_eq!(missing.status, 404);
    server.stop().await;
}

#[tokio::test]
async fn a_grpc_web_call_over_http1_is_answered_like_a_grpc_one() {
    let server = start().await;
    let message = pb::GetServerInfoRequest {}.encode_to_vec();
    let mut body = vec![0u8];
    body.extend_from_slice(&(message.len() as u32).to_be_bytes());
    body.extend_from_slice(&message);
    let head = format!(
        "POST /pitchmate.v1.ServerService/GetServerInfo HTTP/1.1\r\nHost: board\r\n\
         Content-Type: application/grpc-web+proto\r\nX-Grpc-Web: 1\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let answer = http1(server.address, &head, &body).await;
    assert_eq!(answer.status, 200);
    assert_eq!(
        answer.header("content-type"),
        Some("application/grpc-web+proto")
    );
    let frames = grpc_web_frames(&answer.body);
    assert_eq!(frames.len(), 2, "one message, then the trailers");
    assert_eq!(frames[0].0, 0);
    let info = pb::GetServerInfoResponse::decode(frames[0].1.as_slice()).expect("the answer");
    assert!(!info.version.is_empty(), "{info:?}");
    assert_eq!(frames[1].0, 0x80);
    let trailers = String::from_utf8(frames[1].1.clone()).unwrap();
    assert!(trailers.contains("grpc-status:0"), "{trailers}");

    // The same connection kind still serves HTTP/2 gRPC clients beside it.
    let mut client = pb::server_service_client::ServerServiceClient::new(server.channel().await);
    client.ping(pb::PingRequest {}).await.expect("a gRPC ping");
    server.stop().await;
}

#[tokio::test]
async fn a_browser_request_head_that_never_ends_is_cut_by_the_handshake_timeout() {
    let mut settings = test_settings();
    settings.connections.handshake_timeout_secs = 1;
    let server = start_with(settings).await;
    let mut trickling = raw::connect_and_send(server.address, b"GET / HTTP/1.1\r\nHost: bo").await;
    assert!(
        raw::until_closed(&mut trickling, std::time::Duration::from_secs(60))
            .await
            .is_ok(),
        "a request head that never ends is cut"
    );
    // A whole request on a new connection is still answered.
    let page = http1(
        server.address,
        "GET / HTTP/1.1\r\nHost: board\r\nConnection: close\r\n\r\n",
        b"",
    )
    .await;
    assert_eq!(page.status, 200);
    server.stop().await;
}
