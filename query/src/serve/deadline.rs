//! A connection's write deadline: a client that takes nothing of its answer for
//! the write time is cut off, and the answer it held freed. Kept at the socket,
//! where every answer's bytes pass, so a whole answer, a stream and an error
//! are all bounded alike; a client that reads, however slowly, is not cut.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, ready};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// A socket whose writes fail once none has gone through for `limit`.
#[derive(Debug)]
pub struct WriteDeadline<T> {
    io: T,
    limit: Duration,
    /// Set while a write waits on the client; reset by any progress.
    stalled: Option<Pin<Box<Sleep>>>,
    /// Whether the last write waits on the client: bytes are still to send.
    waiting: Arc<AtomicBool>,
}

impl<T> WriteDeadline<T> {
    pub fn new(io: T, limit: Duration) -> Self {
        WriteDeadline {
            io,
            limit,
            stalled: None,
            waiting: Arc::default(),
        }
    }

    /// Whether bytes wait for the client to take them, as the last write
    /// left it: read between polls of the connection, it tells whether the
    /// connection has anything left to send.
    pub fn waiting(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.waiting)
    }

    /// What a write that returned `polled` comes to: its result, or once the
    /// client has taken nothing for the write time, an error that closes the
    /// connection.
    fn waited<R>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<R>>,
    ) -> Poll<io::Result<R>> {
        self.waiting.store(polled.is_pending(), Ordering::Relaxed);
        if polled.is_ready() {
            self.stalled = None;
            return polled;
        }
        let limit = self.limit;
        let stalled = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        ready!(stalled.as_mut().poll(cx));
        Poll::Ready(Err(io::Error::new(
            io::ErrorKind::TimedOut,
            format!("the client took nothing of its answer for {limit:?}"),
        )))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for WriteDeadline<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for WriteDeadline<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.io).poll_write(cx, buf);
        this.waited(cx, polled)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        this.waited(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.io).poll_flush(cx);
        this.waited(cx, polled)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.io).poll_shutdown(cx);
        this.waited(cx, polled)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn a_reader_that_takes_nothing_is_cut_off_and_one_that_reads_is_not() {
        // A pipe of 1 KB that nobody reads: the write fills it, then waits.
        let (writer, reader) = tokio::io::duplex(1024);
        let mut writer = WriteDeadline::new(writer, Duration::from_millis(50));
        let started = std::time::Instant::now();
        let error = writer.write_all(&[0u8; 64 << 10]).await.unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
        assert!(started.elapsed() >= Duration::from_millis(50));
        // Read slowly, each read well within the time: everything goes through.
        let (writer, mut slow) = tokio::io::duplex(1024);
        let mut writer = WriteDeadline::new(writer, Duration::from_millis(50));
        let reading = tokio::spawn(async move {
            let mut got = vec![0u8; 512];
            let mut total = 0;
            while total < 16 << 10 {
                tokio::time::sleep(Duration::from_millis(5)).await;
                total += slow.read(&mut got).await.unwrap();
            }
            total
        });
        writer.write_all(&[0u8; 16 << 10]).await.unwrap();
        assert_eq!(reading.await.unwrap(), 16 << 10);
        drop(reader);
    }
}
