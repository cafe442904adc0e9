//! The start of every connection, read before hyper sees it.
//!
//! hyper's HTTP/2 server waits for the client's preface for as long as the socket stays open,
//! so a client that connects and says nothing (or half of it) would hold a descriptor and a
//! connection slot forever. The transport reads the preface and the client's first SETTINGS
//! frame itself, under the handshake timeout, and then hands hyper the connection with those
//! bytes put back in front ([`Rewind`]), so hyper reads exactly what the client sent.
//!
//! A browser speaks HTTP/1.1 (the web board's page and its grpc-web calls): a connection whose
//! first byte starts a request method is handed to hyper's HTTP/1.1 server as soon as that byte
//! arrives, and hyper's header read timeout, set to the handshake timeout, bounds the rest.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, ReadBuf};

/// What every HTTP/2 client sends first (RFC 9113, section 3.4).
pub const PREFACE: &[u8; 24] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

const FRAME_HEADER_LEN: usize = 9;
const SETTINGS_FRAME: u8 = 0x4;
const ACK_FLAG: u8 = 0x1;
const SETTING_LEN: usize = 6;

/// The largest first SETTINGS frame accepted: the frame size every endpoint must accept before
/// settings say otherwise (RFC 9113, section 4.2). The six settings HTTP/2 defines take 36
/// bytes, so no real client comes near it.
pub const MAX_SETTINGS_LEN: usize = 16_384;

/// Why a connection was not accepted as HTTP/2.
#[derive(Debug, thiserror::Error)]
pub enum HandshakeError {
    #[error("the client did not send the HTTP/2 preface (HTTP/1 or not HTTP at all)")]
    NotHttp2,
    #[error("the first frame after the preface is of type {0:#x}, not SETTINGS")]
    NotSettings(u8),
    #[error("the first SETTINGS frame is an acknowledgement, with nothing to acknowledge")]
    SettingsAck,
    #[error("the first SETTINGS frame names stream {0}; SETTINGS belong to the connection")]
    SettingsOnStream(u32),
    #[error("the first SETTINGS frame is {0} bytes long, not a multiple of 6 up to 16384")]
    SettingsLength(usize),
    #[error("the client closed the connection during the handshake")]
    Closed,
    #[error("reading the handshake: {0}")]
    Io(#[from] io::Error),
}

/// How far `received` (everything the client has sent so far) gets through the handshake:
/// `Ok(Some(n))` when its first `n` bytes are the preface and a well-formed SETTINGS frame,
/// `Ok(None)` when nothing is wrong yet but more bytes are needed.
pub fn check(received: &[u8]) -> Result<Option<usize>, HandshakeError> {
    let preface_part = received.len().min(PREFACE.len());
    if received[..preface_part] != PREFACE[..preface_part] {
        return Err(HandshakeError::NotHttp2);
    }
    let Some(header) = received.get(PREFACE.len()..PREFACE.len() + FRAME_HEADER_LEN) else {
        return Ok(None);
    };
    let length =
        usize::from(header[0]) << 16 | usize::from(header[1]) << 8 | usize::from(header[2]);
    let (frame_type, flags) = (header[3], header[4]);
    // The top bit is reserved and ignored on receipt.
    let stream = u32::from_be_bytes([header[5], header[6], header[7], header[8]]) & 0x7fff_ffff;
    if frame_type != SETTINGS_FRAME {
        return Err(HandshakeError::NotSettings(frame_type));
    }
    if flags & ACK_FLAG != 0 {
        return Err(HandshakeError::SettingsAck);
    }
    if stream != 0 {
        return Err(HandshakeError::SettingsOnStream(stream));
    }
    if length % SETTING_LEN != 0 || length > MAX_SETTINGS_LEN {
        return Err(HandshakeError::SettingsLength(length));
    }
    let complete = PREFACE.len() + FRAME_HEADER_LEN + length;
    Ok((received.len() >= complete).then_some(complete))
}

/// Whether `received`, which is not an HTTP/2 preface, starts like an HTTP/1.1 request: its
/// method, an upper-case token ("GET", "POST", ...).
fn starts_like_http1(received: &[u8]) -> bool {
    received.first().is_some_and(u8::is_ascii_uppercase)
}

/// Reads from `io` until the handshake is complete and returns every byte read, the handshake
/// and whatever the client sent right behind it, for [`Rewind`] to give back; or, from an
/// HTTP/1.1 client, the first bytes of its request. The caller bounds the time it may take.
pub async fn read<R: AsyncRead + Unpin>(io: &mut R) -> Result<Vec<u8>, HandshakeError> {
    // Enough for the preface, a frame header and the settings real clients send, in one read.
    let mut received = Vec::with_capacity(128);
    loop {
        match check(&received) {
            Ok(Some(_)) => return Ok(received),
            Ok(None) => {}
            Err(HandshakeError::NotHttp2) if starts_like_http1(&received) => return Ok(received),
            Err(error) => return Err(error),
        }
        // Never more than a read's worth beyond a complete handshake: check() refused anything
        // longer than MAX_SETTINGS_LEN before this grows past it.
        received.reserve(512);
        if io.read_buf(&mut received).await? == 0 {
            return Err(HandshakeError::Closed);
        }
    }
}

/// A connection whose first bytes, already read, are read again.
#[derive(Debug)]
pub struct Rewind<T> {
    replay: Vec<u8>,
    position: usize,
    inner: T,
}

impl<T> Rewind<T> {
    pub fn new(replay: Vec<u8>, inner: T) -> Self {
        Self {
            replay,
            position: 0,
            inner,
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Rewind<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if self.position < self.replay.len() {
            let rest = &self.replay[self.position..];
            let n = rest.len().min(buf.remaining());
            buf.put_slice(&rest[..n]);
            self.position += n;
            if self.position == self.replay.len() {
                // The connection may live for hours; its handshake need not.
                self.replay = Vec::new();
                self.position = 0;
            }
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Rewind<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A SETTINGS frame carrying `settings` (id, value) pairs.
    fn settings(settings: &[(u16, u32)]) -> Vec<u8> {
        let length = settings.len() * SETTING_LEN;
        let mut frame = frame_header(length, SETTINGS_FRAME, 0, 0);
        for (id, value) in settings {
            frame.extend_from_slice(&id.to_be_bytes());
            frame.extend_from_slice(&value.to_be_bytes());
        }
        frame
    }

    fn frame_header(length: usize, frame_type: u8, flags: u8, stream: u32) -> Vec<u8> {
        let mut header = (length as u32).to_be_bytes()[1..].to_vec();
        header.extend_from_slice(&[frame_type, flags]);
        header.extend_from_slice(&stream.to_be_bytes());
        header
    }

    fn handshake(frame: &[u8]) -> Vec<u8> {
        let mut bytes = PREFACE.to_vec();
        bytes.extend_from_slice(frame);
        bytes
    }

    /// Yields its chunks one read at a time, as a slow client's segments arrive.
    struct Chunks(std::collections::VecDeque<Vec<u8>>);

    impl AsyncRead for Chunks {
        fn poll_read(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            if let Some(chunk) = self.0.pop_front() {
                let n = chunk.len().min(buf.remaining());
                buf.put_slice(&chunk[..n]);
                if n < chunk.len() {
                    self.0.push_front(chunk[n..].to_vec());
                }
            }
            Poll::Ready(Ok(()))
        }
    }

    fn chunks(bytes: &[u8], size: usize) -> Chunks {
        Chunks(bytes.chunks(size).map(<[u8]>::to_vec).collect())
    }

    #[test]
    fn a_complete_handshake_is_recognised_whatever_follows_it() {
        let frame = settings(&[(0x3, 100), (0x4, 65_535)]);
        let mut bytes = handshake(&frame);
        let complete = bytes.len();
        assert_eq!(check(&bytes).unwrap(), Some(complete));
        // The client's next frames may arrive in the same segment.
        bytes.extend_from_slice(&frame_header(4, 0x8, 0, 0));
        bytes.extend_from_slice(&[0, 0, 1, 0]);
        assert_eq!(check(&bytes).unwrap(), Some(complete));
        // An empty SETTINGS frame is as good as any.
        let empty = handshake(&settings(&[]));
        assert_eq!(check(&empty).unwrap(), Some(empty.len()));
    }

    #[test]
    fn every_prefix_of_a_handshake_asks_for_more() {
        let bytes = handshake(&settings(&[(0x2, 0), (0x5, 16_384)]));
        for end in 0..bytes.len() {
            assert_eq!(check(&bytes[..end]).unwrap(), None, "after {end} bytes");
        }
    }

    #[test]
    fn anything_but_the_preface_is_refused_at_its_first_wrong_byte() {
        for wrong in [
            b"GET / HTTP/1.1\r\nHost: x\r\n\r\n".as_slice(),
            b"PRI * HTTP/1.1",
            b"\x16\x03\x01\x02\x00", // a TLS ClientHello
        ] {
            assert!(
                matches!(check(wrong), Err(HandshakeError::NotHttp2)),
                "{wrong:?}"
            );
        }
        assert!(matches!(check(b"PRX"), Err(HandshakeError::NotHttp2)));
    }

    #[test]
    fn odd_first_frames_are_refused() {
        let headers = handshake(&frame_header(0, 0x1, 0x4, 1));
        assert!(matches!(
            check(&headers),
            Err(HandshakeError::NotSettings(0x1))
        ));
        let ack = handshake(&frame_header(0, SETTINGS_FRAME, ACK_FLAG, 0));
        assert!(matches!(check(&ack), Err(HandshakeError::SettingsAck)));
        let on_stream = handshake(&frame_header(6, SETTINGS_FRAME, 0, 3));
        assert!(matches!(
            check(&on_stream),
            Err(HandshakeError::SettingsOnStream(3))
        ));
        let ragged = handshake(&frame_header(7, SETTINGS_FRAME, 0, 0));
        assert!(matches!(
            check(&ragged),
            Err(HandshakeError::SettingsLength(7))
        ));
        // Refused from its header alone: the server never waits for, or buffers, its payload.
        let oversized = handshake(&frame_header(MAX_SETTINGS_LEN + 6, SETTINGS_FRAME, 0, 0));
        assert!(matches!(
            check(&oversized),
            Err(HandshakeError::SettingsLength(16_390))
        ));
        let largest = handshake(&frame_header(MAX_SETTINGS_LEN - 4, SETTINGS_FRAME, 0, 0));
        assert_eq!(check(&largest).unwrap(), None, "16380 bytes is allowed");
    }

    #[tokio::test]
    async fn reading_gathers_a_handshake_split_across_reads_and_keeps_what_follows() {
        let mut sent = handshake(&settings(&[(0x3, 10)]));
        sent.extend_from_slice(b"next frames");
        for size in [1, 5, 24, 33, sent.len()] {
            let read = read(&mut chunks(&sent, size)).await.unwrap();
            assert!(sent.starts_with(&read), "chunks of {size}");
            assert!(read.len() >= sent.len() - b"next frames".len());
            let mut rewound = Rewind::new(read, chunks(&sent[..0], 1));
            let mut again = Vec::new();
            rewound.read_to_end(&mut again).await.unwrap();
            assert!(sent.starts_with(&again), "replayed as read");
        }
    }

    #[tokio::test]
    async fn reading_stops_at_a_wrong_byte_or_an_early_close() {
        let wrong = read(&mut chunks(b"\x16\x03\x01\x02\x00", 1)).await;
        assert!(matches!(wrong, Err(HandshakeError::NotHttp2)));
        let half = read(&mut chunks(&PREFACE[..12], 4)).await;
        assert!(matches!(half, Err(HandshakeError::Closed)));
        let no_settings = read(&mut chunks(PREFACE, 24)).await;
        assert!(matches!(no_settings, Err(HandshakeError::Closed)));
    }

    #[tokio::test]
    async fn an_http1_request_is_handed_on_from_its_first_byte() {
        let sent = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n";
        let read = read(&mut chunks(sent, 1)).await.unwrap();
        assert_eq!(read, b"G");
        let post = b"POST /pitchmate.v1.ServerService/Ping HTTP/1.1\r\n";
        let read = super::read(&mut chunks(post, 2)).await.unwrap();
        assert_eq!(
            read, b"PO",
            "refused as a preface at its second byte, then HTTP/1.1"
        );
    }

    #[tokio::test]
    async fn a_rewound_connection_reads_its_replay_then_the_rest() {
        let mut rewound = Rewind::new(b"hello ".to_vec(), chunks(b"world", 2));
        let mut small = [0u8; 4];
        let n = rewound.read(&mut small).await.unwrap();
        assert_eq!(&small[..n], b"hell");
        let mut rest = Vec::new();
        rewound.read_to_end(&mut rest).await.unwrap();
        assert_eq!(rest, b"o world");
    }
}
