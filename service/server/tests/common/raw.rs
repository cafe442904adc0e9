//! HTTP/2 by hand, for clients no library would be: ones that stop halfway through the
//! handshake, never send a request body, ignore GOAWAY or never answer a ping.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

pub const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

pub const DATA: u8 = 0x0;
pub const HEADERS: u8 = 0x1;
pub const RST_STREAM: u8 = 0x3;
pub const SETTINGS: u8 = 0x4;
pub const PING: u8 = 0x6;
pub const GOAWAY: u8 = 0x7;

pub const ACK: u8 = 0x1;
pub const END_STREAM: u8 = 0x1;
pub const END_HEADERS: u8 = 0x4;

/// `SETTINGS_MAX_CONCURRENT_STREAMS`.
pub const MAX_CONCURRENT_STREAMS: u16 = 0x3;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub kind: u8,
    pub flags: u8,
    pub stream: u32,
    pub payload: Vec<u8>,
}

impl Frame {
    /// A SETTINGS frame's (id, value) pairs.
    pub fn settings(&self) -> Vec<(u16, u32)> {
        self.payload
            .chunks_exact(6)
            .map(|s| {
                (
                    u16::from_be_bytes([s[0], s[1]]),
                    u32::from_be_bytes([s[2], s[3], s[4], s[5]]),
                )
            })
            .collect()
    }
}

/// One frame's bytes.
pub fn frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let mut bytes = (payload.len() as u32).to_be_bytes()[1..].to_vec();
    bytes.extend_from_slice(&[kind, flags]);
    bytes.extend_from_slice(&stream.to_be_bytes());
    bytes.extend_from_slice(payload);
    bytes
}

/// The preface and an empty SETTINGS frame: a complete client handshake.
pub fn handshake() -> Vec<u8> {
    let mut bytes = PREFACE.to_vec();
    bytes.extend(frame(SETTINGS, 0, 0, &[]));
    bytes
}

/// A HEADERS frame opening gRPC call `path` on `stream`, with `extra` headers, and no body to
/// follow unless the caller sends one.
pub fn call_headers(stream: u32, path: &str, extra: &[(&str, &str)]) -> Vec<u8> {
    let mut block = Vec::new();
    let standard = [
        (":method", "POST"),
        (":scheme", "http"),
        (":path", path),
        (":authority", "127.0.0.1"),
        ("content-type", "application/grpc"),
        ("te", "trailers"),
    ];
    for (name, value) in standard.iter().chain(extra) {
        // HPACK: a literal field without indexing, new name, no Huffman coding.
        block.push(0);
        hpack_string(&mut block, name.as_bytes());
        hpack_string(&mut block, value.as_bytes());
    }
    frame(HEADERS, END_HEADERS, stream, &block)
}

fn hpack_string(block: &mut Vec<u8>, bytes: &[u8]) {
    // An integer with a 7-bit prefix (RFC 7541, section 5.1).
    let mut length = bytes.len();
    if length < 127 {
        block.push(length as u8);
    } else {
        block.push(127);
        length -= 127;
        while length >= 128 {
            block.push((length % 128) as u8 | 0x80);
            length /= 128;
        }
        block.push(length as u8);
    }
    block.extend_from_slice(bytes);
}

/// The next frame, `None` once the server has closed the connection (or reset it).
pub async fn read_frame(reader: &mut (impl AsyncRead + Unpin)) -> Option<Frame> {
    let mut header = [0u8; 9];
    reader.read_exact(&mut header).await.ok()?;
    let length = u32::from_be_bytes([0, header[0], header[1], header[2]]) as usize;
    let mut payload = vec![0; length];
    reader.read_exact(&mut payload).await.ok()?;
    Some(Frame {
        kind: header[3],
        flags: header[4],
        stream: u32::from_be_bytes([header[5], header[6], header[7], header[8]]) & 0x7fff_ffff,
        payload,
    })
}

/// Connects and sends `bytes`.
pub async fn connect_and_send(address: SocketAddr, bytes: &[u8]) -> TcpStream {
    let mut stream = TcpStream::connect(address).await.expect("connect");
    stream.write_all(bytes).await.expect("send");
    stream
}

/// Reads and discards until the server closes the connection; `Err` if it is still open
/// after `patience`.
pub async fn until_closed(stream: &mut TcpStream, patience: Duration) -> Result<(), ()> {
    let mut sink = [0u8; 4096];
    tokio::time::timeout(patience, async {
        // A reset counts as closed as much as an orderly end does.
        while let Ok(1..) = stream.read(&mut sink).await {}
    })
    .await
    .map_err(|_| ())
}

/// Reads every frame until the server closes the connection, answering each PING and
/// SETTINGS as a well-behaved client would but otherwise doing nothing (GOAWAY included);
/// returns what it read, in order.
pub async fn answer_until_closed(stream: TcpStream) -> Vec<Frame> {
    let (mut reader, mut writer) = stream.into_split();
    let mut frames = Vec::new();
    while let Some(frame) = read_frame(&mut reader).await {
        let answer = match frame.kind {
            PING if frame.flags & ACK == 0 => Some(self::frame(PING, ACK, 0, &frame.payload)),
            SETTINGS if frame.flags & ACK == 0 => Some(self::frame(SETTINGS, ACK, 0, &[])),
            _ => None,
        };
        if let Some(answer) = answer {
            // The server may have closed its side already; reading tells.
            let _ = writer.write_all(&answer).await;
        }
        frames.push(frame);
    }
    frames
}

/// Writes `bytes` without caring whether the server still reads.
pub async fn send(writer: &mut (impl AsyncWrite + Unpin), bytes: &[u8]) {
    let _ = writer.write_all(bytes).await;
}

/// Raises this process's soft limit on open files to at least `needed`, within the hard
/// limit, so a test can hold that many sockets on machines whose default is 1,024.
#[cfg(unix)]
pub fn allow_open_files(needed: u64) {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    if limit.current.is_none_or(|current| current >= needed) {
        return;
    }
    let raised = limit.maximum.map_or(needed, |maximum| maximum.min(needed));
    setrlimit(
        Resource::Nofile,
        Rlimit {
            current: Some(raised),
            maximum: limit.maximum,
        },
    )
    .expect("raise the open file limit");
    assert!(
        raised >= needed,
        "this test needs {needed} open files; the hard limit is {raised} (raise `ulimit -Hn`)"
    );
}
