//! Each client's share of the answers under way: no address may have more
//! than `--max-per-address` answers being worked on or streamed at once, so
//! one client's stalled batches or slow answers leave the others their
//! permits. The connection's address is known to the request's task
//! ([`as_peer`]); work with no address (a test calling the routes directly)
//! takes no share. Behind a reverse proxy every client has the proxy's
//! address: raise the share to `--max-probes` there.

use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

tokio::task_local! {
    /// The address of the client whose request this task answers.
    static PEER: IpAddr;
}

/// Runs `answer`, a request's answer, as the client at `peer`'s.
pub async fn as_peer<F: Future>(peer: IpAddr, answer: F) -> F::Output {
    PEER.scope(peer, answer).await
}

/// The address of the client whose request is being answered, if known.
pub fn current_peer() -> Option<IpAddr> {
    PEER.try_with(|peer| *peer).ok()
}

/// The answers under way per address, and the most one address may have.
#[derive(Debug)]
pub struct Shares {
    held: Mutex<HashMap<IpAddr, usize>>,
    most: usize,
}

/// One answer's place in its address's share, given back when dropped.
#[derive(Debug)]
pub struct Share {
    shares: Arc<Shares>,
    peer: IpAddr,
}

impl Drop for Share {
    fn drop(&mut self) {
        let mut held = self.shares.lock();
        if let Some(n) = held.get_mut(&self.peer) {
            *n -= 1;
            if *n == 0 {
                held.remove(&self.peer);
            }
        }
    }
}

impl Shares {
    pub fn new(most: usize) -> Arc<Shares> {
        Arc::new(Shares {
            held: Mutex::default(),
            most: most.max(1),
        })
    }

    /// The most answers one address may have under way.
    pub fn most(&self) -> usize {
        self.most
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, usize>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for one more answer of `peer`, or `None` where it has its
    /// share under way.
    pub fn take(self: &Arc<Self>, peer: IpAddr) -> Option<Share> {
        let mut held = self.lock();
        let n = held.entry(peer).or_default();
        if *n >= self.most {
            return None;
        }
        *n += 1;
        Some(Share {
            shares: Arc::clone(self),
            peer,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn each_address_has_its_share_and_no_more() {
        let shares = Shares::new(2);
        let (one, two) = (IpAddr::from([10, 0, 0, 1]), IpAddr::from([10, 0, 0, 2]));
        let first = shares.take(one).unwrap();
        let _second = shares.take(one).unwrap();
        assert!(shares.take(one).is_none());
        assert!(shares.take(two).is_some());
        drop(first);
        assert!(shares.take(one).is_some());
        assert_eq!(current_peer(), None);
        assert_eq!(as_peer(two, async { current_peer() }).await, Some(two));
    }
}
