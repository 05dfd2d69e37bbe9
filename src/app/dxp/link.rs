//! The DamExchange SOCKET layer: messages over a TCP stream, each ended by a NUL.
//!
//! [`Framer`] cuts bytes into messages and never holds more than one message's worth;
//! [`Link`] adds the socket, deadlines on every read and a bounded write.

use std::fmt;
use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use super::message::{DxpError, Message, MAX_LEN};

/// The port DamExchange programs listen on.
pub const DEFAULT_PORT: u16 = 27531;
/// Longest a write may block (a peer that stops reading).
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// Why no message could be had from the peer.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum LinkError {
    /// Nothing within the deadline.
    Timeout,
    /// The peer closed the connection.
    Closed,
    Io(String),
    /// Bytes that are not a message; the connection goes on after a framed one, not after
    /// one too long to frame ([`LinkError::is_fatal`]).
    Protocol(DxpError),
}

impl LinkError {
    /// Whether the connection is unusable after this error.
    pub fn is_fatal(&self) -> bool {
        match self {
            LinkError::Timeout => false,
            LinkError::Protocol(e) => matches!(e, DxpError::TooLong(_)),
            LinkError::Closed | LinkError::Io(_) => true,
        }
    }
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::Timeout => write!(f, "no message in time"),
            LinkError::Closed => write!(f, "the peer closed the connection"),
            LinkError::Io(e) => write!(f, "{e}"),
            LinkError::Protocol(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for LinkError {}

/// Cuts a byte stream into NUL-terminated messages of at most [`MAX_LEN`] bytes.
#[derive(Default, Debug)]
pub struct Framer {
    pending: Vec<u8>,
    /// Bytes of a message already known to be too long (discarded up to its NUL).
    overflow: usize,
    ready: std::collections::VecDeque<Result<Vec<u8>, DxpError>>,
}

impl Framer {
    /// Take in bytes read from the stream.
    pub fn push(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if b == 0 {
                if self.overflow > 0 {
                    let n = self.overflow + self.pending.len();
                    self.ready.push_back(Err(DxpError::TooLong(n)));
                    self.overflow = 0;
                    self.pending.clear();
                } else {
                    self.ready.push_back(Ok(std::mem::take(&mut self.pending)));
                }
            } else if self.pending.len() > MAX_LEN {
                // Forget the bytes, keep their count: memory stays bounded.
                self.overflow += self.pending.len() + 1;
                self.pending.clear();
            } else if self.overflow > 0 {
                self.overflow += 1;
            } else {
                self.pending.push(b);
            }
        }
    }

    /// The next whole message, if any.
    pub fn next_message(&mut self) -> Option<Result<Vec<u8>, DxpError>> {
        self.ready.pop_front()
    }

    /// The bytes held while their message's NUL has not come: never more than one message.
    pub fn buffered(&self) -> usize {
        self.pending.len()
    }

    /// Whether a message is being received that is already too long to be one.
    pub fn overflowing(&self) -> bool {
        self.overflow > 0 || self.pending.len() > MAX_LEN
    }
}

/// One DamExchange connection.
pub struct Link {
    stream: TcpStream,
    framer: Framer,
    peer: String,
}

impl Link {
    pub fn new(stream: TcpStream) -> io::Result<Link> {
        stream.set_nodelay(true)?;
        stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
        let peer = stream
            .peer_addr()
            .map_or_else(|_| "peer".to_string(), |a| a.to_string());
        Ok(Link {
            stream,
            framer: Framer::default(),
            peer,
        })
    }

    /// Connect to `addr`, waiting at most `timeout`.
    pub fn connect(addr: &SocketAddr, timeout: Duration) -> io::Result<Link> {
        Link::new(TcpStream::connect_timeout(addr, timeout)?)
    }

    /// The peer's address, for messages.
    pub fn peer(&self) -> &str {
        &self.peer
    }

    /// Send a message and its NUL.
    pub fn send(&mut self, message: &Message) -> Result<(), LinkError> {
        let mut bytes = message.encode().map_err(LinkError::Protocol)?;
        bytes.push(0);
        self.stream
            .write_all(&bytes)
            .and_then(|_| self.stream.flush())
            .map_err(|e| LinkError::Io(e.to_string()))
    }

    /// The next message, waiting until `deadline`.
    pub fn receive(&mut self, deadline: Instant) -> Result<Message, LinkError> {
        let mut buf = [0u8; 512];
        loop {
            if let Some(frame) = self.framer.next_message() {
                let bytes = frame.map_err(LinkError::Protocol)?;
                return Message::decode(&bytes).map_err(LinkError::Protocol);
            }
            if self.framer.overflowing() {
                // Too long to be a message: the stream cannot be trusted to resync.
                return Err(LinkError::Protocol(DxpError::TooLong(MAX_LEN + 1)));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(LinkError::Timeout);
            }
            self.stream
                .set_read_timeout(Some(left))
                .map_err(|e| LinkError::Io(e.to_string()))?;
            match self.stream.read(&mut buf) {
                Ok(0) => return Err(LinkError::Closed),
                Ok(n) => self.framer.push(&buf[..n]),
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
                {
                    return Err(LinkError::Timeout)
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(LinkError::Io(e.to_string())),
            }
        }
    }

    /// Close both directions (the peer sees the end of the stream).
    pub fn close(&self) {
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
    }
}
