//! The server itself: the accept loop with its connection cap
//! (the oldest connection makes room for a new one), the request-head timeout,
//! and a graceful stop on SIGTERM or SIGINT within a drain time.

use super::routes::app;
use super::state::Limits;
use crate::library::Library;
use crate::metrics::Metrics;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::collections::BTreeMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::oneshot;
use tracing::{info, warn};

/// The most a request head may take in bytes before hyper refuses it (431).
const HEAD_BUFFER: usize = 256 << 10;

/// Serves until `shutdown` completes, then lets open connections finish within
/// the drain time.
pub async fn serve(
    addr: &str,
    library: Library,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) -> anyhow::Result<()> {
    raise_open_file_limit();
    let listener = tokio::net::TcpListener::bind(addr).await?;
    info!(
        "serving tables from {} on http://{}",
        library.dir.display(),
        listener.local_addr()?
    );
    eprintln!(
        "serving tables from {} on http://{}",
        library.dir.display(),
        listener.local_addr()?
    );
    let app = app(library, &limits, Metrics::new());
    let mut http = hyper::server::conn::http1::Builder::new();
    // Room for request heads well past the longest position, so that a long
    // one reaches the handler and is refused there in JSON.
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(HEAD_BUFFER.max(4 * limits.max_position));
    let graceful = GracefulShutdown::new();
    let connections = Connections::new(limits.max_connections);
    // Closes every connection left when the drain time is over.
    let (close, closed) = tokio::sync::watch::channel(());
    tokio::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of file handles, most likely: wait for some to close.
                    warn!("accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let slot = connections.admit();
        let service = TowerToHyperService::new(app.clone());
        let connection = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
        let mut closed = closed.clone();
        tokio::spawn(async move {
            let mut slot = slot;
            // Dropping a connection drops its request, which stops its work.
            tokio::select! {
                _ = connection => {}
                _ = &mut slot.evicted => {}
                _ = closed.changed() => {}
            }
        });
    }
    drop(listener);
    info!("shutting down: draining open connections");
    tokio::select! {
        () = graceful.shutdown() => info!("all connections closed"),
        () = tokio::time::sleep(limits.drain_timeout) => {
            warn!("drain time over: closing the connections left");
            let _ = close.send(());
        }
    }
    // Let the connections closed drop their requests.
    tokio::time::sleep(Duration::from_millis(10)).await;
    Ok(())
}

/// Completes on SIGINT (Ctrl-C) or SIGTERM (what `docker stop` and systemd send).
pub async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
}

/// Lets the process open as many files as its hard limit allows: each
/// connection takes one.
fn raise_open_file_limit() {
    #[cfg(unix)]
    if let Err(e) = rlimit::increase_nofile_limit(u64::MAX) {
        warn!("raising the open file limit: {e}");
    }
}

/// The open connections, oldest first; admitting one beyond the cap evicts the
/// oldest.
#[derive(Clone)]
struct Connections {
    open: Arc<Mutex<BTreeMap<u64, oneshot::Sender<()>>>>,
    next: Arc<std::sync::atomic::AtomicU64>,
    cap: usize,
}

/// A connection's place among the open ones; it leaves when dropped.
struct Slot {
    id: u64,
    open: Arc<Mutex<BTreeMap<u64, oneshot::Sender<()>>>>,
    /// Completes when the connection is evicted.
    evicted: oneshot::Receiver<()>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.id);
    }
}

impl Connections {
    fn new(cap: usize) -> Self {
        Connections {
            open: Arc::default(),
            next: Arc::default(),
            cap: cap.max(1),
        }
    }

    fn admit(&self) -> Slot {
        let id = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (evict, evicted) = oneshot::channel();
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        while open.len() >= self.cap {
            // Dropping the sender wakes the oldest connection's task, which closes it.
            open.pop_first();
        }
        open.insert(id, evict);
        Slot {
            id,
            open: Arc::clone(&self.open),
            evicted,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_connection_makes_room() {
        let connections = Connections::new(2);
        let mut first = connections.admit();
        let _second = connections.admit();
        assert!(
            first
                .evicted
                .try_recv()
                .is_err_and(|e| e == oneshot::error::TryRecvError::Empty)
        );
        let _third = connections.admit();
        assert_eq!(
            first.evicted.try_recv(),
            Err(oneshot::error::TryRecvError::Closed)
        );
        drop(first);
        assert_eq!(connections.open.lock().unwrap().len(), 2);
    }
}
