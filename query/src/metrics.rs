//! What the server counts, in Prometheus' text format at `/metrics`: requests by
//! status, their latency, the tables open, the bytes of decompressed blocks and
//! the answers running, the connections open and the answers waiting for
//! their readers.

use crate::library::Library;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use std::sync::Arc;
use std::time::Duration;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Status {
    status: u16,
}

/// The server's counters, shared by every request.
#[derive(Clone)]
pub struct Metrics {
    registry: Arc<Registry>,
    requests: Family<Status, Counter>,
    latency: Histogram,
    open_tables: Gauge,
    cache_bytes: Gauge,
    probes_running: Gauge,
    connections_open: Gauge,
    answers_waiting: Gauge,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    pub fn new() -> Self {
        let requests = Family::<Status, Counter>::default();
        // 0.1 ms to about 3 s, doubling.
        let latency =
            Histogram::new(std::iter::successors(Some(0.0001), |b| Some(b * 2.0)).take(16));
        let open_tables = Gauge::default();
        let cache_bytes = Gauge::default();
        let probes_running = Gauge::default();
        let connections_open = Gauge::default();
        let answers_waiting = Gauge::default();
        let mut registry = Registry::with_prefix("tbquery");
        registry.register(
            "http_requests",
            "HTTP requests answered, by status",
            requests.clone(),
        );
        registry.register(
            "http_request_duration_seconds",
            "Time to answer an HTTP request",
            latency.clone(),
        );
        registry.register("open_tables", "Table files open", open_tables.clone());
        registry.register(
            "block_cache_bytes",
            "Bytes of decompressed table blocks held",
            cache_bytes.clone(),
        );
        registry.register(
            "probes_running",
            "Answers whose work is running, their requests gone or not",
            probes_running.clone(),
        );
        registry.register(
            "connections_open",
            "Connections open",
            connections_open.clone(),
        );
        registry.register(
            "answers_waiting_bytes",
            "Bytes of whole answers waiting for their readers",
            answers_waiting.clone(),
        );
        Metrics {
            registry: Arc::new(registry),
            requests,
            latency,
            open_tables,
            cache_bytes,
            probes_running,
            connections_open,
            answers_waiting,
        }
    }

    pub fn connection_opened(&self) {
        self.connections_open.inc();
    }

    pub fn connection_closed(&self) {
        self.connections_open.dec();
    }

    /// Counts one answered request.
    pub fn record(&self, status: u16, took: Duration) {
        self.requests.get_or_create(&Status { status }).inc();
        self.latency.observe(took.as_secs_f64());
    }

    /// Everything, in the text format, with the gauges read from `library`
    /// now, the `running` answers and the bytes of those `waiting`.
    pub fn render(&self, library: &Library, running: usize, waiting: usize) -> String {
        self.probes_running.set(running as i64);
        self.answers_waiting.set(waiting as i64);
        self.open_tables.set(library.cache.open_tables() as i64);
        self.cache_bytes
            .set(library.cache.blocks().bytes().min(i64::MAX as u64) as i64);
        let mut text = String::new();
        encode(&mut text, &self.registry).expect("writing to a String cannot fail");
        text
    }
}
