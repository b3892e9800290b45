//! The memory answers hold while they wait for their readers. Every whole
//! answer is counted against one budget for the server from the moment it is
//! made until its client has taken it (or is cut off at the write deadline,
//! [`super::deadline`]); an answer that would go beyond the budget is refused
//! with 503 and Retry-After, so clients that never read cannot take the
//! server's memory. An answer goes out in pieces, each handed to the
//! connection only once it has written the one before. Streamed answers (a
//! batch) are not counted here: they hold a few lines at a time.

use super::respond::ServeError;
use super::state::AppState;
use crate::QueryError;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper::body::{Body as _, Frame, SizeHint};
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};

/// The bytes of an answer handed to its connection at a time.
const PIECE: usize = 64 << 10;

/// The bytes of answers waiting for their readers, and the most they may hold.
#[derive(Debug)]
pub struct Outbox {
    held: AtomicUsize,
    limit: usize,
}

/// An answer's share of the [`Outbox`], given back when dropped.
#[derive(Debug)]
pub struct Charge {
    outbox: Arc<Outbox>,
    bytes: usize,
}

impl Drop for Charge {
    fn drop(&mut self) {
        self.outbox.held.fetch_sub(self.bytes, Ordering::Relaxed);
    }
}

impl Outbox {
    pub fn new(limit: usize) -> Arc<Outbox> {
        Arc::new(Outbox {
            held: AtomicUsize::new(0),
            limit,
        })
    }

    /// The bytes held now.
    pub fn held(&self) -> usize {
        self.held.load(Ordering::Relaxed)
    }

    /// The most the answers may hold.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// A charge of `bytes`, or `None` where it would take the answers held
    /// beyond the limit.
    pub fn charge(self: &Arc<Self>, bytes: usize) -> Option<Charge> {
        self.held
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |held| {
                held.checked_add(bytes).filter(|&total| total <= self.limit)
            })
            .ok()?;
        Some(Charge {
            outbox: Arc::clone(self),
            bytes,
        })
    }
}

/// A whole answer handed out [`PIECE`] bytes at a time, holding its charge
/// until it is taken or dropped.
struct Pieces {
    rest: Bytes,
    _charge: Charge,
}

impl hyper::body::Body for Pieces {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let rest = &mut self.get_mut().rest;
        if rest.is_empty() {
            return Poll::Ready(None);
        }
        let piece = rest.split_to(rest.len().min(PIECE));
        Poll::Ready(Some(Ok(Frame::data(piece))))
    }

    fn is_end_stream(&self) -> bool {
        self.rest.is_empty()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.rest.len() as u64)
    }
}

/// Counts every whole answer against the server's [`Outbox`]; refuses it with
/// 503 where the answers waiting already hold the budget.
pub async fn hold(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let Some(bytes) = response.body().size_hint().exact() else {
        return response;
    };
    if bytes == 0 {
        return response;
    }
    let Some(charge) = state.outbox.charge(bytes as usize) else {
        let limit = state.outbox.limit();
        return ServeError::Crowded { limit }.into_response();
    };
    let (parts, body) = response.into_parts();
    // A body of known length is whole already: this takes it as it is.
    match axum::body::to_bytes(body, bytes as usize).await {
        Ok(rest) => {
            let pieces = Pieces {
                rest,
                _charge: charge,
            };
            Response::from_parts(parts, Body::new(pieces))
        }
        Err(e) => {
            let error = QueryError::Internal(format!("an answer not read back: {e}"));
            ServeError::from(error).into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charges_stay_within_the_limit_and_are_given_back() {
        let outbox = Outbox::new(100);
        let first = outbox.charge(60).unwrap();
        assert!(outbox.charge(41).is_none());
        let second = outbox.charge(40).unwrap();
        assert_eq!(outbox.held(), 100);
        drop(first);
        assert_eq!(outbox.held(), 40);
        assert!(outbox.charge(61).is_none());
        drop(second);
        assert_eq!(outbox.held(), 0);
    }

    #[tokio::test]
    async fn an_answer_goes_out_in_pieces_and_frees_its_charge_when_taken() {
        use http_body_util::BodyExt;
        let outbox = Outbox::new(1 << 20);
        let answer: Vec<u8> = (0..200_000u32).map(|i| i as u8).collect();
        let body = Pieces {
            rest: Bytes::from(answer.clone()),
            _charge: outbox.charge(answer.len()).unwrap(),
        };
        let mut body = Body::new(body);
        let mut pieces = Vec::new();
        while let Some(frame) = body.frame().await {
            pieces.push(frame.unwrap().into_data().unwrap());
        }
        assert_eq!(pieces.iter().map(Bytes::len).max(), Some(PIECE));
        assert_eq!(pieces.concat(), answer);
        drop(body);
        assert_eq!(outbox.held(), 0);
    }
}
