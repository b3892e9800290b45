//! The server itself: the accept loop with its connection cap (an idle
//! connection makes room for a new one; no answer in progress is cut), the
//! request-head timeout, the write deadline ([`super::deadline`]), and a
//! graceful stop on SIGTERM or SIGINT within a drain time.

use super::deadline::WriteDeadline;
use super::routes::app;
use super::share::as_peer;
use super::state::Limits;
use crate::library::Library;
use crate::metrics::Metrics;
use axum::body::Body;
use axum::http::Request;
use axum::response::Response;
use hyper::body::{Frame, Incoming, SizeHint};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
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
    let metrics = Metrics::new();
    let app = app(library, &limits, metrics.clone());
    let mut http = hyper::server::conn::http1::Builder::new();
    // Room for request heads well past the longest position, so that a long
    // one reaches the handler and is refused there in JSON.
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(HEAD_BUFFER.max(4 * limits.max_position));
    let connections = Connections::new(limits.max_connections, metrics);
    // Asks every connection to finish its answer and close; then closes the
    // ones left when the drain time is over.
    let (stop, _) = tokio::sync::watch::channel(false);
    // Each connection's task holds a sender: all are gone when `live` ends.
    let (alive, mut live) = tokio::sync::mpsc::channel::<()>(1);
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file handles, most likely: wait for some to close.
                    warn!("accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // At the cap, a newcomer from the address that holds the most is not let in.
        let Some(slot) = connections.admit(peer.ip()) else {
            continue;
        };
        let busy = Arc::clone(&slot.busy);
        let service = tower::ServiceBuilder::new()
            .map_request(move |request: Request<Incoming>| {
                busy.store(true, Ordering::Relaxed);
                request
            })
            .map_response(tracked(Arc::clone(&slot.busy)))
            .map_future(move |answer| as_peer(peer.ip(), answer))
            .service(app.clone());
        let io = WriteDeadline::new(stream, limits.write_timeout);
        let (sending, busy) = (io.waiting(), Arc::clone(&slot.busy));
        let io = TokioIo::new(io);
        let connection = http.serve_connection(io, TowerToHyperService::new(service));
        let (mut stopping, alive) = (stop.subscribe(), alive.clone());
        tokio::spawn(async move {
            let _alive = alive;
            let mut slot = slot;
            tokio::pin!(connection);
            let mut closing = false;
            // Dropping a connection drops its request, which stops its work.
            loop {
                tokio::select! {
                    _ = connection.as_mut() => break,
                    // Let go to make room: closed at once where it answers
                    // nothing and has nothing left to send (one still
                    // sending its request's head among them), else once its
                    // answer is sent, the last bytes of an answer whose body
                    // is all made among them.
                    _ = &mut slot.evicted, if !closing => {
                        let idle = !busy.load(Ordering::Relaxed) && !sending.load(Ordering::Relaxed);
                        if idle {
                            break;
                        }
                        connection.as_mut().graceful_shutdown();
                        closing = true;
                    }
                    changed = stopping.changed() => {
                        // The drain time is over.
                        if changed.is_err() {
                            break;
                        }
                        let stopped = *stopping.borrow_and_update();
                        if stopped && !closing {
                            connection.as_mut().graceful_shutdown();
                            closing = true;
                        }
                    }
                }
            }
        });
    }
    drop(listener);
    drop(alive);
    info!("shutting down: draining open connections");
    stop.send_replace(true);
    tokio::select! {
        _ = live.recv() => info!("all connections closed"),
        () = tokio::time::sleep(limits.drain_timeout) => {
            warn!("drain time over: closing the connections left");
            drop(stop);
        }
    }
    // Let the connections closed drop their requests.
    tokio::time::sleep(Duration::from_millis(10)).await;
    Ok(())
}

/// Marks a connection idle again once its answer's body is gone (sent, or
/// dropped with the connection).
fn tracked(busy: Arc<AtomicBool>) -> impl Fn(Response) -> Response + Clone {
    move |response: Response| {
        let busy = Arc::clone(&busy);
        response.map(|body| Body::new(Tracked { body, busy }))
    }
}

/// An answer's body, which marks its connection idle when dropped.
struct Tracked {
    body: Body,
    busy: Arc<AtomicBool>,
}

impl Drop for Tracked {
    fn drop(&mut self) {
        self.busy.store(false, Ordering::Relaxed);
    }
}

impl hyper::body::Body for Tracked {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
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

/// An open connection, as the cap sees it.
struct Open {
    peer: IpAddr,
    busy: Arc<AtomicBool>,
    evict: oneshot::Sender<()>,
}

/// The open connections, oldest first. A connection beyond the cap makes room
/// by letting go the oldest idle one (a client between requests, or one still
/// sending its request's head); where every one is answering, the newest of
/// the address that holds the most, counting the newcomer: that is the
/// newcomer itself when its address holds the most, which is then not let in,
/// else one that closes once its answer is sent.
#[derive(Clone)]
struct Connections {
    open: Arc<Mutex<BTreeMap<u64, Open>>>,
    next: Arc<AtomicU64>,
    cap: usize,
    metrics: Metrics,
}

/// A connection's place among the open ones; it leaves when dropped.
struct Slot {
    id: u64,
    connections: Connections,
    /// Whether the connection is answering a request.
    busy: Arc<AtomicBool>,
    /// Completes when the connection is let go.
    evicted: oneshot::Receiver<()>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.connections.lock().remove(&self.id);
        self.connections.metrics.connection_closed();
    }
}

impl Connections {
    fn new(cap: usize, metrics: Metrics) -> Self {
        Connections {
            open: Arc::default(),
            next: Arc::default(),
            cap: cap.max(1),
            metrics,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Open>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for a connection from `peer`, or `None` where it is not let in.
    fn admit(&self, peer: IpAddr) -> Option<Slot> {
        let mut open = self.lock();
        while open.len() >= self.cap {
            let idle = open.iter().find(|(_, o)| !o.busy.load(Ordering::Relaxed));
            let id = match idle {
                Some((&id, _)) => id,
                None => newest_of_busiest(&open, peer)?,
            };
            let evicted = open.remove(&id).expect("found among the open");
            let _ = evicted.evict.send(());
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let (evict, evicted) = oneshot::channel();
        let busy = Arc::new(AtomicBool::new(false));
        let entry = Open {
            peer,
            busy: Arc::clone(&busy),
            evict,
        };
        open.insert(id, entry);
        drop(open);
        self.metrics.connection_opened();
        Some(Slot {
            id,
            connections: self.clone(),
            busy,
            evicted,
        })
    }
}

/// The newest connection of the address with the most open, counting a
/// newcomer from `peer`; `None` where that is the newcomer (ties go to it).
fn newest_of_busiest(open: &BTreeMap<u64, Open>, peer: IpAddr) -> Option<u64> {
    let mut counts: HashMap<IpAddr, usize> = HashMap::from([(peer, 1)]);
    for o in open.values() {
        *counts.entry(o.peer).or_default() += 1;
    }
    let most = counts[&peer];
    let (busiest, _) = counts
        .into_iter()
        .filter(|&(_, n)| n > most)
        .max_by_key(|&(address, n)| (n, address))?;
    open.iter()
        .rev()
        .find(|(_, o)| o.peer == busiest)
        .map(|(&id, _)| id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(last: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, last])
    }

    #[test]
    fn an_idle_connection_makes_room_and_no_answer_is_cut() {
        let connections = Connections::new(4, Metrics::new());
        let mut first = connections.admit(address(1)).unwrap();
        let mut second = connections.admit(address(2)).unwrap();
        let mut third = connections.admit(address(2)).unwrap();
        let mut fourth = connections.admit(address(2)).unwrap();
        first.busy.store(true, Ordering::Relaxed);
        // The oldest idle one goes at once; the busy first stays.
        let fifth = connections.admit(address(3)).unwrap();
        assert_eq!(second.evicted.try_recv(), Ok(()));
        assert!(first.evicted.try_recv().is_err());
        drop(second);
        // All busy: the newest of the address that holds the most is asked to
        // close after its answer.
        for slot in [&first, &third, &fourth, &fifth] {
            slot.busy.store(true, Ordering::Relaxed);
        }
        let sixth = connections.admit(address(4)).unwrap();
        sixth.busy.store(true, Ordering::Relaxed);
        assert_eq!(fourth.evicted.try_recv(), Ok(()));
        assert!(third.evicted.try_recv().is_err());
        drop(fourth);
        // A newcomer whose address holds as many as any other is not let in.
        assert!(connections.admit(address(2)).is_none());
        assert!(connections.admit(address(5)).is_none());
        assert!(first.evicted.try_recv().is_err() && third.evicted.try_recv().is_err());
        assert_eq!(connections.lock().len(), 4);
    }
}
