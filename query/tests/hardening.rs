//! Hostile input and hostile clients: each input that once crashed, stalled or
//! misled a tool, and the server under slow clients, huge URLs and bodies, a
//! FIFO in the table folder, a table overwritten in place, work that outlives
//! its request, and SIGTERM.

mod common;

use common::{tbquery, tbquery_bytes, text};
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Runs tbquery and expects a refusal: exit status 1 or 2 (never a panic's
/// 101), with `reason` in its message.
fn refused(dir: &std::path::Path, args: &[&str], reason: &str) {
    let out = tbquery(dir, args, "quit\n");
    let code = out.status.code();
    assert!(matches!(code, Some(1 | 2)), "{args:?}: exit {code:?}");
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(said.contains(reason), "{args:?}: {said}");
}

#[test]
fn inputs_that_once_panicked_are_refused_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_euler(dir.path());
    common::generate(dir.path(), "abapa", &[("max-seeds", "2")]);
    let dir = dir.path();
    let eights = format!("{}/8/8/8/8/2k5/8/KQ6 w - - 0 1", "8".repeat(33));
    refused(dir, &["probe", "chess", &eights], "more than 8 squares");
    let king = format!("{}K7/8/8/8/8/2k5/8/KQ6 w - - 0 1", "8".repeat(32));
    refused(dir, &["probe", "chess", &king], "more than 8 squares");
    let huge = "18446744073709551615";
    refused(
        dir,
        &["probe", "subtraction", "5 7", "--max-take", huge],
        "subtraction takes a whole number from 1 to",
    );
    let captured = "--captured=4294967295,4294967295";
    let seeds = "0 0 0 0 0 1 / 1 0 0 0 0 0";
    refused(dir, &["probe", "abapa", seeds, captured], "do not make 48");
    refused(
        dir,
        &["play", "abapa", "--think=1e308"],
        "takes seconds from 0.001 to 3600",
    );
    refused(dir, &["verify", "euler", "--samples", huge], "--samples");
    refused(
        dir,
        &["verify", "euler", "--samples", "70000"],
        "the tables have at most 65536 slots each; --all checks every one",
    );
    // The operating system's reason is said once.
    let out = tbquery(&dir.join("missing"), &["info"], "");
    let said = text(&out.stderr);
    assert_eq!(said.matches("No such file").count(), 1, "{said}");
}

#[test]
fn batch_answers_every_line_in_order_whatever_it_holds() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_euler(dir.path());
    let input = b"xxxx/xxxx/x.../x...\n\xff\xfe\n\nxxxx/xxxx/xxxx/xxx.\r\n";
    let out = tbquery_bytes(dir.path(), &["probe", "euler", "-", "--json"], input);
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(lines[0]["distance"], 4);
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("line 2 is not UTF-8")
    );
    assert!(
        lines[2]["error"]
            .as_str()
            .unwrap()
            .contains("expected 4 rows")
    );
    assert_eq!(
        (lines[3]["value"].as_str(), lines[3]["distance"].as_u64()),
        (Some("loss"), Some(1))
    );
    assert!(
        !out.status.success(),
        "failed lines make the exit status non-zero"
    );
}

#[test]
fn a_fifo_in_the_folder_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("euler.tb");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo (coreutils) failed");
    refused(
        dir.path(),
        &["probe", "euler", "start"],
        "not a regular file",
    );
    refused(dir.path(), &["check"], "DAMAGED");
}

#[test]
fn a_symbolic_link_loop_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("loop-b", dir.path().join("loop-a")).unwrap();
    std::os::unix::fs::symlink("loop-a", dir.path().join("loop-b")).unwrap();
    std::os::unix::fs::symlink("loop-a", dir.path().join("euler.tb")).unwrap();
    refused(dir.path(), &["probe", "euler", "start"], "symbolic links");
    refused(dir.path(), &["check"], "symbolic links");
}

/// A response's status and body.
fn answer(mut response: ureq::http::Response<ureq::Body>) -> (u16, String) {
    let status = response.status().as_u16();
    (status, response.body_mut().read_to_string().unwrap())
}

/// A server started on a free port, stopped when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start(dir: &std::path::Path, extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tbquery"))
            .args(["serve", "--addr", "127.0.0.1:0", "--dir"])
            .arg(dir)
            .args(extra)
            .env("TBQUERY_LOG", "warn")
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        let addr = line
            .trim()
            .rsplit("http://")
            .next()
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        // Keep reading its log, so that it never blocks on a full pipe.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        Server { child, addr }
    }

    /// A client that takes every status as an answer.
    fn agent() -> ureq::Agent {
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(30)))
            .build()
            .new_agent()
    }

    /// GET a path: the status and the body.
    fn get(&self, path: &str) -> (u16, String) {
        let url = format!("http://{}{path}", self.addr);
        answer(Self::agent().get(&url).call().unwrap())
    }

    /// POST a body: the status and the body.
    fn post(&self, path: &str, body: &[u8]) -> (u16, String) {
        let url = format!("http://{}{path}", self.addr);
        answer(Self::agent().post(&url).send(body).unwrap())
    }

    /// Sends raw bytes and reads the answer until the server closes or
    /// `wait` passes: its status line and body.
    fn raw(&self, request: &[u8], wait: Duration) -> String {
        let mut stream = TcpStream::connect(self.addr).unwrap();
        stream.set_read_timeout(Some(wait)).unwrap();
        // The server may answer (and close) before it has read everything.
        let _ = stream.write_all(request);
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        String::from_utf8_lossy(&answer).into_owned()
    }

    /// A gauge of `/metrics`, by its name without the prefix.
    fn gauge(&self, name: &str) -> u64 {
        let metrics = self.get("/metrics").1;
        let prefix = format!("tbquery_{name} ");
        metrics
            .lines()
            .find_map(|l| l.strip_prefix(&prefix))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("no {name} in {metrics}"))
    }

    /// Answers whose work is running, from `/metrics`.
    fn running(&self) -> u64 {
        self.gauge("probes_running")
    }

    /// How long `/health` takes to answer.
    fn health(&self) -> Duration {
        let started = Instant::now();
        let (status, _) = self.get("/health");
        assert_eq!(status, 200);
        started.elapsed()
    }

    /// Connections that send `request` and never read a byte.
    fn never_reading(&self, request: &[u8], count: usize) -> Vec<TcpStream> {
        (0..count)
            .map(|_| {
                let mut stream = TcpStream::connect(self.addr).unwrap();
                stream.write_all(request).unwrap();
                stream
            })
            .collect()
    }

    /// Waits until at most `most` connections are open, for at most `limit`;
    /// how long that took.
    fn until_connections(&self, most: u64, limit: Duration) -> Duration {
        let started = Instant::now();
        while self.gauge("connections_open") > most {
            assert!(
                started.elapsed() < limit,
                "connections still open after {limit:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        started.elapsed()
    }

    /// How long until no answer's work runs, at most `limit`.
    fn until_idle(&self, limit: Duration) -> Duration {
        let started = Instant::now();
        while self.running() > 0 {
            assert!(
                started.elapsed() < limit,
                "work still running after {limit:?}"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        started.elapsed()
    }

    /// Sends SIGTERM; the time until the server exited, with success.
    fn terminate(&mut self) -> Duration {
        let killed = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let started = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "still running after SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(10));
        };
        assert!(status.success(), "{status:?}");
        started.elapsed()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits until the server looks at its tables' files again.
fn table_seen_again() {
    std::thread::sleep(query::tablebase::RECHECK + Duration::from_millis(100));
}

#[test]
fn the_server_survives_a_table_overwritten_in_place_and_picks_up_a_new_one() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_dots(dir.path(), &["1x1", "2x2"]);
    let server = Server::start(dir.path(), &[]);
    let probe = "/api/v1/dots?size=2x2&position=000000000000";
    let (status, body) = server.get(probe);
    assert_eq!(status, 200, "{body}");
    let good = std::fs::read(dir.path().join("dots-2x2.tb")).unwrap();
    // In place, as `cp` does: same file, other contents.
    let smaller = std::fs::read(dir.path().join("dots-1x1.tb")).unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(dir.path().join("dots-2x2.tb"))
        .unwrap()
        .write_all(&smaller)
        .unwrap();
    table_seen_again();
    let (status, body) = server.get(probe);
    assert_eq!(status, 500, "{body}");
    assert!(
        body.contains("table's variant is '1x1', expected '2x2'"),
        "{body}"
    );
    // As tbgen does: a new file renamed into place.
    let fresh = dir.path().join("fresh.tmp");
    std::fs::write(&fresh, &good).unwrap();
    std::fs::rename(&fresh, dir.path().join("dots-2x2.tb")).unwrap();
    table_seen_again();
    let (status, body) = server.get(probe);
    assert_eq!(status, 200, "{body}");
    // Parameters named the old way still work; absurd ones are refused.
    let (status, _) = server.get("/api/v1/dots?size=1x1&position=0000");
    assert_eq!(status, 200);
    let (status, body) =
        server.get("/api/v1/subtraction?position=5+7&max_take=18446744073709551615");
    assert_eq!(status, 400, "{body}");
    let metrics = server.get("/metrics").1;
    assert!(
        metrics.contains("tbquery_http_requests_total{status=\"200\"}"),
        "{metrics}"
    );
    assert!(metrics.contains("tbquery_open_tables "), "{metrics}");
}

/// Another table's values under a table's own header, every checksum made
/// anew (Misère Nim's behind Nim's): `check` recounts the values against the
/// header's statistics and refuses it, and `tbgen` makes the table again
/// rather than keep it. (Once: `check` called it sound, and `probe nim '3 4 5'`
/// said win in 10 where it is 11.)
#[test]
fn another_tables_values_under_a_tables_header_are_refused_by_check() {
    let dir = tempfile::tempdir().unwrap();
    common::generate(dir.path(), "nim", &[]);
    common::generate(dir.path(), "nim-misere", &[]);
    let nim = dir.path().join("nim.tb");
    let truth = text(&tbquery(dir.path(), &["probe", "nim", "3 4 5"], "").stdout);
    let header = tables::Table::open(&nim).unwrap().header().clone();
    let misere = tables::Table::open(dir.path().join("nim-misere.tb"))
        .unwrap()
        .read_all()
        .unwrap();
    assert_eq!(misere.len() as u64, header.index_size);
    std::fs::remove_file(&nim).unwrap();
    tables::write_table(&nim, &header, &misere, tables::FAST_LEVEL).unwrap();
    refused(
        dir.path(),
        &["check"],
        "another table's values under this one's header",
    );
    // tbgen keeps sound tables only: this one is made again.
    common::generate(dir.path(), "nim", &[]);
    assert!(tbquery(dir.path(), &["check"], "").status.success());
    let again = text(&tbquery(dir.path(), &["probe", "nim", "3 4 5"], "").stdout);
    assert_eq!(again, truth);
}

/// A chess table stores other codes than its values (empty slots filled,
/// captures searched), so its values cannot be counted from its blocks; but
/// every code it stores is one its values hold: KPvK's DTM values under its
/// DTZ table's header, every checksum made anew, store mates longer than any
/// DTZ and are refused. (Once: 63 of 200 probes wrong, `check` silent.)
#[test]
fn a_chess_tables_values_under_another_header_are_refused_by_check() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_chess_dtm_and_dtz(dir.path(), "KPvK");
    assert!(tbquery(dir.path(), &["check"], "").status.success());
    let dtz = dir.path().join("chess-dtz-KPvK.tb");
    let header = tables::Table::open(&dtz).unwrap().header().clone();
    let dtm = tables::Table::open(dir.path().join("chess-KPvK.tb"))
        .unwrap()
        .read_all()
        .unwrap();
    std::fs::remove_file(&dtz).unwrap();
    tables::write_table(&dtz, &header, &dtm, tables::FAST_LEVEL).unwrap();
    refused(dir.path(), &["check"], "which none of its values holds");
}

/// A table copied over another's name is refused by `check`, `info` and
/// `probe` alike: its header names another table.
#[test]
fn a_table_under_another_tables_name_is_refused_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_dots(dir.path(), &["1x1", "2x2"]);
    std::fs::copy(
        dir.path().join("dots-2x2.tb"),
        dir.path().join("dots-1x1.tb"),
    )
    .unwrap();
    refused(
        dir.path(),
        &["check"],
        "dots-1x1.tb: holds the table named dots-2x2.tb",
    );
    let info = tbquery(dir.path(), &["info"], "");
    assert!(
        text(&info.stdout).contains("dots-1x1.tb: unreadable")
            && text(&info.stdout).contains("holds the table named dots-2x2.tb"),
        "{}",
        text(&info.stdout)
    );
    refused(
        dir.path(),
        &["probe", "dots", "--size", "1x1", "0000"],
        "expected '1x1'",
    );
}

/// The server's peak resident memory, in MB.
fn peak_mb(server: &Server) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.child.id())).unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    kb >> 10
}

/// Small requests for huge answers: Moore's Nim with 60 heaps and k = 8 (once
/// 3.9 GB and an abort, its page view too), a Northcott board of 26 x 1000
/// (once a 680 MB body).
/// Each is answered within a second, refused or cut short with the bound named,
/// and the server stays small.
#[test]
fn small_requests_for_huge_answers_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), &[]);
    let heaps: Vec<String> = (0..60).map(|i| (i * 7 % 20).to_string()).collect();
    let start = std::time::Instant::now();
    let (status, body) = server.get(&format!("/api/v1/moore?k=8&position={}", heaps.join("+")));
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("too many to list"), "{body}");
    // The page's view of the same, and of nine heaps of 30 (lost: every digit's
    // column holds 0 or 9), which have 6 * 10^12 moves.
    let lost = ["30"; 9].join("+");
    for position in [heaps.join("+"), lost] {
        let start = std::time::Instant::now();
        let (status, body) = server.get(&format!("/api/v1/moore/view?k=8&position={position}"));
        assert!(
            start.elapsed() < Duration::from_secs(1),
            "{:?}",
            start.elapsed()
        );
        assert_eq!(status, 200, "{body}");
        let view: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert!(
            view["moves"].as_array().unwrap().len() <= 100_000,
            "{position}"
        );
    }
    for _ in 0..3 {
        let start = std::time::Instant::now();
        let (status, body) = server.get("/api/v1/northcott/view?size=26x1000&position=start");
        assert!(
            start.elapsed() < Duration::from_secs(1),
            "{:?}",
            start.elapsed()
        );
        assert_eq!(status, 200);
        assert!(body.len() < 8 << 20, "{} bytes", body.len());
        let view: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(view["moves"].as_array().map(Vec::len), Some(0));
        let error = view["error"].as_str().unwrap();
        assert!(
            error.contains("25948 moves") && error.contains("at most 8 MB"),
            "{error}"
        );
    }
    // A board whose moves fit is listed whole.
    let (_, body) = server.get("/api/v1/northcott/view?size=26x100&position=start");
    let view: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(view["moves"].as_array().map(Vec::len), Some(26 * 98));
    let peak = peak_mb(&server);
    assert!(peak < 500, "the server peaked at {peak} MB");
}

/// Copies another table over a served one in place every 20 ms, as `cp` does
/// (truncate, then write), and the table back again, for `seconds`, while six
/// clients probe it with a 1 MB block cache: the server must stay up and every
/// answer it gives must be the undisturbed one.
fn survive_copies_over_a_served_table(seconds: u64) {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
    let dir = tempfile::tempdir().unwrap();
    common::generate_dots(dir.path(), &["2x2", "3x3"]);
    let served = dir.path().join("dots-3x3.tb");
    let good = std::fs::read(&served).unwrap();
    let other = std::fs::read(dir.path().join("dots-2x2.tb")).unwrap();
    let server = Server::start(dir.path(), &["--cache-mb", "1"]);
    let paths: Vec<String> = (0..120u64)
        .map(|i| {
            let bits = (i * 0x9E37_79B9).wrapping_mul(2_654_435_761) % (1 << 24);
            let edges: String = (0..24)
                .map(|b| if bits >> b & 1 == 1 { '1' } else { '0' })
                .collect();
            format!(
                "/api/v1/dots?size=3x3&position={}/{}",
                &edges[..12],
                &edges[12..]
            )
        })
        .collect();
    let expected: Vec<String> = paths
        .iter()
        .map(|path| {
            let (status, body) = server.get(path);
            assert_eq!(status, 200, "{path}: {body}");
            body
        })
        .collect();
    let stop = AtomicBool::new(false);
    let (answered, refused, wrong) = (
        AtomicUsize::new(0),
        AtomicUsize::new(0),
        AtomicUsize::new(0),
    );
    std::thread::scope(|scope| {
        for client in 0..6 {
            let (paths, expected, server) = (&paths, &expected, &server);
            let (stop, answered, refused, wrong) = (&stop, &answered, &refused, &wrong);
            scope.spawn(move || {
                let mut i = client * 17;
                while !stop.load(Relaxed) {
                    let at = i % paths.len();
                    let (status, body) = server.get(&paths[at]);
                    match status {
                        200 if body == expected[at] => answered.fetch_add(1, Relaxed),
                        200 => wrong.fetch_add(1, Relaxed),
                        _ => refused.fetch_add(1, Relaxed),
                    };
                    i += 1;
                }
            });
        }
        let until = std::time::Instant::now() + Duration::from_secs(seconds);
        let mut swaps = 0;
        while std::time::Instant::now() < until {
            let contents = if swaps % 2 == 0 { &other } else { &good };
            std::fs::OpenOptions::new()
                .write(true)
                .truncate(true)
                .open(&served)
                .and_then(|mut file| file.write_all(contents))
                .unwrap();
            swaps += 1;
            std::thread::sleep(Duration::from_millis(20));
        }
        stop.store(true, Relaxed);
    });
    let mut server = server;
    assert!(
        server.child.try_wait().unwrap().is_none(),
        "the server stopped while its table was overwritten"
    );
    let (answered, refused) = (answered.into_inner(), refused.into_inner());
    eprintln!("{seconds} s of copies: {answered} right answers, {refused} refusals");
    assert_eq!(wrong.into_inner(), 0, "wrong answers");
    assert!(answered > 0, "no answer in {seconds} s");
    // Once the right table is back, every answer is right again.
    std::fs::write(&served, &good).unwrap();
    table_seen_again();
    for (path, body) in paths.iter().zip(&expected) {
        assert_eq!(&server.get(path).1, body);
    }
}

#[test]
fn a_table_copied_over_while_served_never_crashes_the_server_or_answers_wrongly() {
    survive_copies_over_a_served_table(5);
}

/// The same for a minute, as the hardening issue asks; `cargo test --release
/// --test hardening -- --ignored` runs it.
#[test]
#[ignore]
fn a_table_copied_over_for_a_minute_while_served_never_crashes_the_server() {
    survive_copies_over_a_served_table(60);
}

#[test]
fn the_server_answers_during_slow_client_and_huge_url_attacks_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_euler(dir.path());
    // A head's time longer than the test: the slow ones are closed to make
    // room, not for their time.
    let mut server = Server::start(
        dir.path(),
        &["--max-connections", "64", "--header-timeout", "60"],
    );
    // More connections than the server keeps, each sending half a request and
    // then waiting: the oldest are closed to make room for new ones.
    let slow: Vec<TcpStream> = (0..200)
        .filter_map(|_| TcpStream::connect(server.addr).ok())
        .map(|mut s| {
            let _ = s.write_all(b"GET /api/v1/euler?position=");
            s
        })
        .collect();
    assert!(slow.len() > 64);
    let huge = format!("/api/v1/nim?position={}", vec!["15"; 20_000].join("+"));
    for _ in 0..20 {
        let (status, body) = server.get("/api/v1/euler?position=start");
        assert_eq!(status, 200, "{body}");
        let (status, body) = server.get(&huge);
        assert_eq!(status, 413, "{body}");
        assert!(body.contains("positions of up to 8192 bytes"), "{body}");
    }
    // The first slow connections were closed by the server.
    let mut first = &slow[0];
    first
        .set_read_timeout(Some(Duration::from_secs(2)))
        .unwrap();
    let mut buffer = [0u8; 16];
    match first.read(&mut buffer) {
        Ok(0) => {}
        Err(e) if !matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
        other => panic!("the oldest slow connection is still open: {other:?}"),
    }

    // SIGTERM: graceful, and within the drain time even with clients connected.
    server.terminate();
    drop(slow);
}

#[test]
fn probes_beyond_the_cap_are_refused_with_retry_after() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_euler(dir.path());
    let server = Server::start(dir.path(), &["--max-probes", "1"]);
    let addr = server.addr;
    // Many clients at once, each asking many times: one probe runs at a time,
    // and the others are told to come back.
    let answers: Vec<(u16, Option<String>)> = std::thread::scope(|scope| {
        let clients: Vec<_> = (0..16)
            .map(|_| {
                scope.spawn(move || {
                    let agent = ureq::Agent::config_builder()
                        .http_status_as_error(false)
                        .build()
                        .new_agent();
                    (0..40)
                        .map(|_| {
                            let url = format!("http://{addr}/api/v1/euler?position=start");
                            let response = agent.get(&url).call().unwrap();
                            let retry = response
                                .headers()
                                .get("retry-after")
                                .map(|v| v.to_str().unwrap().to_string());
                            (response.status().as_u16(), retry)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        clients
            .into_iter()
            .flat_map(|c| c.join().unwrap())
            .collect()
    });
    assert!(answers.iter().any(|(status, _)| *status == 200));
    for (status, retry) in &answers {
        match status {
            200 => assert_eq!(retry, &None),
            503 => assert_eq!(retry.as_deref(), Some("1")),
            other => panic!("status {other}"),
        }
    }
}

/// A batch whose lines take a few milliseconds each (four large heaps of
/// Lasker's Nim, each move of each valued by the formula): 10,000 of them take
/// far longer than any answer time below.
fn slow_batch() -> Vec<u8> {
    (0..10_000)
        .map(|i| format!("\"{} 99998 99997 99996\"\n", 90_000 + i))
        .collect::<String>()
        .into_bytes()
}

/// [`slow_batch`] as a raw HTTP request.
fn slow_batch_request() -> Vec<u8> {
    let batch = slow_batch();
    let head = format!(
        "POST /api/v1/lasker HTTP/1.1\r\nhost: x\r\ncontent-length: {}\r\n\r\n",
        batch.len()
    );
    [head.into_bytes(), batch].concat()
}

#[test]
fn work_stops_when_its_time_is_over_or_its_client_leaves_and_counts_until_then() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), &["--answer-timeout", "1", "--max-probes", "1"]);
    // Its time over: the batch ends early, its last line saying why.
    let started = Instant::now();
    let (status, body) = server.post("/api/v1/lasker", &slow_batch());
    let took = started.elapsed();
    assert_eq!(status, 200, "{body}");
    let lines: Vec<&str> = body.lines().collect();
    assert!(lines.len() > 1 && lines.len() < 10_000, "{}", lines.len());
    assert!(lines[0].contains("\"nim_sum\""), "{}", lines[0]);
    let last = lines.last().unwrap();
    assert!(
        last.contains("stopped: the answer takes longer than the server's 1 s"),
        "{last}"
    );
    assert!(took < Duration::from_secs(3), "{took:?}");
    server.until_idle(Duration::from_secs(1));

    // Its client gone: the work stops, and holds its permit until then.
    let mut client = TcpStream::connect(server.addr).unwrap();
    client.write_all(&slow_batch_request()).unwrap();
    let mut first = [0u8; 64];
    client.read_exact(&mut first).unwrap();
    assert_eq!(server.running(), 1);
    let (status, body) = server.get("/api/v1/lasker?position=5");
    assert_eq!(status, 503, "the one permit is the batch's: {body}");
    drop(client);
    let stopped = server.until_idle(Duration::from_secs(1));
    eprintln!("the work stopped {stopped:?} after its client left");
    let (status, body) = server.get("/api/v1/lasker?position=5");
    assert_eq!(status, 200, "{body}");
}

#[test]
fn sigterm_stops_running_work_and_exits_within_the_drain_time() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start(dir.path(), &["--drain-timeout", "1"]);
    let addr = server.addr;
    let client = std::thread::spawn(move || {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.write_all(&slow_batch_request()).unwrap();
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        answer.len()
    });
    let started = Instant::now();
    while server.running() == 0 {
        assert!(started.elapsed() < Duration::from_secs(10));
        std::thread::sleep(Duration::from_millis(5));
    }
    let exit = server.terminate();
    eprintln!("exited {exit:?} after SIGTERM with a batch running");
    assert!(exit < Duration::from_millis(1500), "{exit:?}");
    assert!(client.join().unwrap() > 0, "the answer had begun");
}

/// Every error is JSON, also the ones answered before a handler runs, and no
/// answer shows where the server keeps its tables.
#[test]
fn every_error_is_json_and_names_no_server_path() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), &[]);
    let folder = dir.path().to_str().unwrap();
    let json = |answer: &str| -> serde_json::Value {
        let body = answer.split("\r\n\r\n").nth(1).unwrap_or(answer);
        serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {answer}"))
    };
    let (status, body) = server.get("/nowhere");
    assert_eq!(status, 404);
    assert!(
        json(&body)["error"]
            .as_str()
            .unwrap()
            .contains("no route GET /nowhere")
    );
    let answer = server.raw(
        b"DELETE /api/v1/euler HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
        Duration::from_secs(5),
    );
    assert!(answer.starts_with("HTTP/1.1 405"), "{answer}");
    assert!(answer.contains("allow: "), "{answer}");
    assert_eq!(json(&answer)["error"], "method not allowed");
    // A body too large, said by its length or found while it streams in.
    let answer = server.raw(
        b"POST /api/v1/euler HTTP/1.1\r\nhost: x\r\ncontent-length: 2000000\r\n\r\n",
        Duration::from_secs(5),
    );
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(
        json(&answer)["error"]
            .as_str()
            .unwrap()
            .contains("payload too large")
    );
    let mut chunked = b"POST /api/v1/euler HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n".to_vec();
    for _ in 0..40 {
        chunked.extend_from_slice(format!("{:x}\r\n", 1 << 16).as_bytes());
        chunked.extend(std::iter::repeat_n(b'x', 1 << 16));
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let answer = server.raw(&chunked, Duration::from_secs(5));
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    let error = json(&answer)["error"].as_str().unwrap().to_string();
    assert!(
        error.contains("longer than the server takes (1048576 bytes)"),
        "{error}"
    );
    // A table not generated: named by its file, not by where it would be.
    let (status, body) = server.get("/api/v1/euler?position=start");
    assert_eq!(status, 503);
    let error = json(&body)["error"].as_str().unwrap().to_string();
    assert!(error.starts_with("euler.tb: no such table"), "{error}");
    assert!(!body.contains(folder), "{body}");
    // In a batch, a line that is not UTF-8 and one too long to be a position
    // are answered in their place, the long one neither held nor echoed.
    let mut batch = b"5\n\xff\xfe\n".to_vec();
    batch.extend(std::iter::repeat_n(b'7', 200_000));
    batch.extend_from_slice(b"\n\"3 4\"\n");
    let (status, body) = server.post("/api/v1/nim", &batch);
    assert_eq!(status, 200, "{body}");
    let lines: Vec<serde_json::Value> = body.lines().map(json).collect();
    assert_eq!(lines.len(), 4, "{body}");
    assert!(
        lines[0]["error"]
            .as_str()
            .unwrap()
            .contains("each line is a position")
    );
    assert!(lines[1]["error"].as_str().unwrap().contains("not UTF-8"));
    let long = lines[2]["error"].as_str().unwrap();
    assert!(
        long.contains("200000 bytes; positions of up to 8192"),
        "{long}"
    );
    assert!(body.len() < 4096, "{}", body.len());
    assert_eq!(lines[3]["value"], "win");
}

/// The largest view a 2.9 KB request asks for: a Northcott board of 26 x 108,
/// an 8.5 MB answer.
const LARGEST_VIEW: &[u8] =
    b"GET /api/v1/northcott/view?size=26x108&position=start HTTP/1.1\r\nhost: x\r\n\r\n";

/// Readers that never read: their answers hold at most the server's budget
/// for answers waiting (others are refused with 503 before they are made),
/// they are cut off at the write deadline, and `/health` answers at once
/// throughout. (Once: 200 such readers took the server from 52 to 2,404 MB,
/// and stayed open past a minute.)
fn never_reading_readers(count: usize) {
    let dir = tempfile::tempdir().unwrap();
    // The budget for answers waiting is 64 MB by default.
    let server = Server::start(dir.path(), &["--write-timeout", "2"]);
    let readers = server.never_reading(LARGEST_VIEW, count);
    std::thread::sleep(Duration::from_millis(500));
    let waiting = server.gauge("answers_waiting_bytes");
    assert!(waiting <= 64 << 20, "{waiting} bytes waiting");
    let slowest = (0..10).map(|_| server.health()).max().unwrap();
    assert!(
        slowest < Duration::from_millis(200),
        "/health took {slowest:?}"
    );
    let cut = server.until_connections(1, Duration::from_secs(10));
    let peak = peak_mb(&server);
    eprintln!(
        "{count} never-reading readers: {} MB waiting, /health at most {slowest:?}, \
         cut off {cut:?} after the first look, the server's peak {peak} MB",
        waiting >> 20
    );
    assert_eq!(server.gauge("answers_waiting_bytes"), 0);
    assert!(peak < 200, "the server peaked at {peak} MB");
    // Those refused were told so, and when to come back.
    let statuses: Vec<String> = readers
        .into_iter()
        .map(|mut reader| {
            let mut head = [0u8; 12];
            let _ = reader.read_exact(&mut head);
            String::from_utf8_lossy(&head[9..]).into_owned()
        })
        .collect();
    assert!(statuses.iter().any(|s| s == "200"), "{statuses:?}");
    assert!(statuses.iter().any(|s| s == "503"), "{statuses:?}");
    // A reader that reads gets the whole view.
    let (status, body) = server.get("/api/v1/northcott/view?size=26x108&position=start");
    assert_eq!(status, 200);
    assert!(body.len() > 8 << 20, "{} bytes", body.len());
}

#[test]
fn readers_that_never_read_hold_a_bounded_memory_and_are_cut_off() {
    never_reading_readers(40);
}

#[test]
#[ignore = "full size: 200 readers of the largest view"]
fn two_hundred_readers_that_never_read_hold_a_bounded_memory() {
    never_reading_readers(200);
}

/// An Euler batch of `lines` lines as a raw HTTP request.
fn euler_batch_request(lines: usize) -> Vec<u8> {
    let batch = "\"start\"\n".repeat(lines);
    let head = format!(
        "POST /api/v1/euler HTTP/1.1\r\nhost: x\r\ncontent-length: {}\r\n\r\n",
        batch.len()
    );
    [head.into_bytes(), batch.into_bytes()].concat()
}

/// Batches whose clients stop reading hold no permit while they wait, and are
/// cut off at the write deadline: probes go on being answered at once.
/// (Once: 256 such batches made every other probe answer 503 for 27 s.)
/// `bound`: the slowest probe allowed (the suite's runs share the machine with
/// other servers).
fn stalled_batches(count: usize, max_probes: &str, bound: Duration) {
    let dir = tempfile::tempdir().unwrap();
    common::generate_euler(dir.path());
    // Every client here has one address: as many as the batches may be under
    // way from it, as from as many clients.
    let server = Server::start(
        dir.path(),
        &[
            "--max-probes",
            max_probes,
            "--write-timeout",
            "3",
            "--max-per-address",
            "1000",
        ],
    );
    let batches = server.never_reading(&euler_batch_request(10_000), count);
    // Until they fill what the sockets hold and wait.
    let started = Instant::now();
    while server.running() > 0 {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "batches still working"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let slowest = (0..20)
        .map(|_| {
            let started = Instant::now();
            let (status, body) = server.get("/api/v1/euler?position=start");
            assert_eq!(status, 200, "{body}");
            started.elapsed()
        })
        .max()
        .unwrap();
    eprintln!(
        "{count} stalled batches: the slowest of 20 probes {slowest:?}, the server at {} MB",
        peak_mb(&server)
    );
    assert!(slowest < bound, "a probe took {slowest:?}");
    server.until_connections(1, Duration::from_secs(10));
    drop(batches);
}

#[test]
fn stalled_batches_give_back_their_permits() {
    stalled_batches(16, "4", Duration::from_millis(500));
}

#[test]
#[ignore = "full size: 256 stalled batches of 10,000 lines"]
fn two_hundred_fifty_six_stalled_batches_give_back_their_permits() {
    stalled_batches(256, "256", Duration::from_millis(100));
}

/// One address has its share of the answers under way and no more: its
/// stalled batches hold their share until the write deadline cuts them off,
/// and its next request is refused meanwhile, saying why.
#[test]
fn a_client_holds_no_more_than_its_share() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_euler(dir.path());
    let server = Server::start(
        dir.path(),
        &["--max-per-address", "2", "--write-timeout", "2"],
    );
    let batches = server.never_reading(&euler_batch_request(10_000), 2);
    std::thread::sleep(Duration::from_millis(300));
    let (status, body) = server.get("/api/v1/euler?position=start");
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("as many as one client may"), "{body}");
    server.until_connections(1, Duration::from_secs(10));
    let (status, body) = server.get("/api/v1/euler?position=start");
    assert_eq!(status, 200, "{body}");
    drop(batches);
}

/// A line of a formula game is weighed before its first ply: one too heavy is
/// refused at once, saying why. (Once: 30 s of a core and 10-20 MB each.)
#[test]
fn costly_lines_are_refused_before_their_work() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), &[]);
    for (game, position) in [
        ("kayles", "24065%2013668%2089716%2075775"),
        ("lasker", "24065%2013668%2089716%2075775"),
        ("dawson", "24065%2013668%2089716%2075775"),
        (
            "end-nim",
            &(1..=1500)
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join("%20"),
        ),
    ] {
        let started = Instant::now();
        let (status, body) = server.get(&format!("/api/v1/{game}/line?position={position}"));
        let took = started.elapsed();
        assert_eq!(status, 400, "{game}: {body}");
        assert!(body.contains("more than a line may"), "{body}");
        assert!(took < Duration::from_millis(500), "{game}: {took:?}");
    }
    // A line within the budget is played to its end.
    let (status, body) = server.get("/api/v1/kayles/line?position=100%20200");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("the game is over"), "{body}");
}

/// 256 costly lines at once: each refused within a few milliseconds, the
/// server small and `/health` quick. (Once: 4.3-4.9 GB, every answer 408 or
/// 503, `/health` 1.65 s.)
#[test]
#[ignore = "full size: 256 costly lines at once"]
fn two_hundred_fifty_six_costly_lines_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    // 256 clients, each with its own share.
    let server = Server::start(dir.path(), &["--max-per-address", "256"]);
    let path = "/api/v1/kayles/line?position=24065%2013668%2089716%2075775";
    let took: Vec<Duration> = std::thread::scope(|scope| {
        let lines: Vec<_> = (0..256)
            .map(|_| {
                scope.spawn(|| {
                    let started = Instant::now();
                    assert_eq!(server.get(path).0, 400);
                    started.elapsed()
                })
            })
            .collect();
        let health = server.health();
        assert!(
            health < Duration::from_millis(50),
            "/health took {health:?}"
        );
        lines.into_iter().map(|l| l.join().unwrap()).collect()
    });
    let slowest = took.iter().max().unwrap();
    let peak = peak_mb(&server);
    eprintln!("256 costly lines: the slowest refused in {slowest:?}, the server's peak {peak} MB");
    assert!(peak < 300, "{peak} MB");
}

/// A formula's costly answer never runs on the threads that read requests,
/// not even the first of its kind on a freshly started server.
#[test]
fn costly_formulas_leave_the_request_threads_free() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), &[]);
    let heaps: Vec<String> = (0..500).map(|i| (i * 7 % 10).to_string()).collect();
    let path = format!("/api/v1/moore?position={}", heaps.join("+"));
    std::thread::scope(|scope| {
        let costly: Vec<_> = (0..2)
            .map(|_| scope.spawn(|| server.get(&path).0))
            .collect();
        std::thread::sleep(Duration::from_millis(200));
        let slowest = (0..10).map(|_| server.health()).max().unwrap();
        assert!(
            slowest < Duration::from_millis(200),
            "/health took {slowest:?}"
        );
        for answer in costly {
            assert_eq!(answer.join().unwrap(), 200);
        }
    });
}

/// At the connection cap a flood of new connections makes room by closing
/// idle ones: an answer in progress is never cut. (Once: each new connection
/// closed the oldest, a 3,000-line batch among them.)
#[test]
fn a_flood_at_the_connection_cap_cuts_no_answer_in_progress() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_euler(dir.path());
    let server = Server::start(dir.path(), &["--max-connections", "8"]);
    let addr = server.addr;
    std::thread::scope(|scope| {
        let reader = scope.spawn(move || {
            let mut stream = TcpStream::connect(addr).unwrap();
            stream.write_all(&euler_batch_request(3_000)).unwrap();
            // Read slowly, so that the flood comes while the answer is sent.
            let mut answer = Vec::new();
            let mut piece = [0u8; 16 << 10];
            loop {
                match stream.read(&mut piece) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => answer.extend_from_slice(&piece[..n]),
                }
                std::thread::sleep(Duration::from_millis(2));
                if answer.ends_with(b"\r\n0\r\n\r\n") {
                    break;
                }
            }
            String::from_utf8_lossy(&answer).into_owned()
        });
        std::thread::sleep(Duration::from_millis(100));
        let flood: Vec<TcpStream> = (0..500)
            .filter_map(|_| TcpStream::connect(addr).ok())
            .collect();
        let answer = reader.join().unwrap();
        let lines = answer.matches("{\"game\":\"euler\"").count();
        assert_eq!(lines, 3_000, "the batch was cut: {} bytes", answer.len());
        drop(flood);
    });
}
