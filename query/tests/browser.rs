//! The web page in a real browser: Debian's chromium, driven by chromedriver
//! over WebDriver. For every game: load its start, make a move by clicking its
//! places on the board, check the value shown and the colour of every move,
//! follow the line of perfect play, and go back and forward. Then edit a chess
//! position, and play a game to its end against the computer.
//!
//! `scripts/install-browser.sh` installs chromium and chromedriver with apt when
//! they are missing (`.ci/run` and the README's test command run it); without
//! them the test fails naming them, unless `TBQUERY_SKIP_BROWSER=1` says to skip
//! it, loudly.
//! With `TBQUERY_SCREENSHOTS=DIR` it also writes each game's page to
//! `DIR/<game>.png` (the README's pictures come from `docs/screenshots`).

mod common;

use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use fantoccini::{Client, ClientBuilder, Locator};
use query::Library;
use serde_json::{Value as Json, json};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Chromium and chromedriver; the test fails naming the one missing, unless
/// `TBQUERY_SKIP_BROWSER=1` says to skip it.
fn browser() -> Option<(PathBuf, PathBuf)> {
    let tool = |name| common::tool(name, "scripts/install-browser.sh", "TBQUERY_SKIP_BROWSER");
    Some((tool("chromium")?, tool("chromedriver")?))
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// chromedriver, stopped when dropped.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn start_browser(
    chromium: &Path,
    driver: &Path,
    profile: &Path,
    extra: &[&str],
) -> (Driver, Client) {
    let port = free_port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let driver = Driver(child);
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "chromedriver did not start"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut args: Vec<String> = [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--hide-scrollbars",
        "--window-size=1280,1000",
    ]
    .iter()
    .chain(extra)
    .map(|a| a.to_string())
    .collect();
    args.push(format!("--user-data-dir={}", profile.display()));
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".into(),
        json!({ "binary": chromium, "args": args }),
    );
    let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a browser session");
    (driver, client)
}

/// The server on a free port, in this process.
async fn start_server(tables: &Path) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = query::serve::router(Library::new(tables));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    addr
}

/// Waits until `script` (a JavaScript expression) is true in the page.
async fn until(client: &Client, what: &str, script: &str) {
    let started = Instant::now();
    loop {
        let done = client
            .execute(&format!("return Boolean({script});"), vec![])
            .await
            .unwrap_or(Json::Bool(false));
        if done == Json::Bool(true) {
            return;
        }
        if started.elapsed() > Duration::from_secs(20) {
            let said = client
                .execute("return document.body.innerText;", vec![])
                .await;
            panic!("waited too long for {what}: {script}\npage: {said:?}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The status line under the page's value.
async fn status_line(client: &Client) -> Json {
    value(client, "document.getElementById('status').textContent").await
}

async fn value(client: &Client, script: &str) -> Json {
    client
        .execute(&format!("return {script};"), vec![])
        .await
        .unwrap()
}

/// The page's own API, asked directly, to compare with what the page shows.
fn ask(addr: SocketAddr, path: &str) -> Json {
    let mut response = ureq::get(&format!("http://{addr}{path}")).call().unwrap();
    serde_json::from_str(&response.body_mut().read_to_string().unwrap()).unwrap()
}

fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The colour class the page gives a move's value.
fn colour(value: &Json) -> &'static str {
    if let Some(score) = value.get("score").and_then(Json::as_i64) {
        return match score.signum() {
            1 => "win",
            -1 => "loss",
            _ => "draw",
        };
    }
    match value["value"].as_str() {
        Some("win") => "win",
        Some("loss") => "loss",
        Some("draw") => "draw",
        _ => "unknown",
    }
}

/// Checks the page shows the position's value as the API says it, and colours
/// every move by its value.
async fn check_values(client: &Client, addr: SocketAddr, id: &str) {
    let position = value(client, "app.view.position").await;
    let position = position.as_str().unwrap();
    let view = ask(
        addr,
        &format!("/api/v1/{id}/view?position={}", encode(position)),
    );
    let shown = value(client, "document.getElementById('said').textContent").await;
    // A legal position beyond the tables has moves but no value; a finished
    // game is headed as such.
    let expected = match view["over"].as_bool() {
        Some(true) => "The game is over",
        _ => view["said"].as_str().unwrap_or("not in the tables"),
    };
    assert_eq!(shown.as_str(), Some(expected), "{id} {position}");
    let colours = value(
        client,
        "[...document.querySelectorAll('#moves .move')].map(b => [b.dataset.move, b.className])",
    )
    .await;
    let colours = colours.as_array().unwrap();
    assert_eq!(
        colours.len(),
        view["moves"].as_array().unwrap().len(),
        "{id}: moves listed"
    );
    if let Some(valued) = view["answer"]["moves"].as_array() {
        for (shown, expected) in colours.iter().zip(valued) {
            assert_eq!(shown[0], expected["move"], "{id}: move order");
            let class = shown[1].as_str().unwrap();
            assert!(
                class.contains(colour(expected)),
                "{id} {}: {class}",
                expected["move"]
            );
        }
    }
}

/// The page has drawn its position, its line and its chart.
const SETTLED: &str = "app.view && app.view.board && !app.busy \
    && (document.querySelectorAll('#line a').length > 0 || document.getElementById('line-end').textContent)";

/// Where screenshots go: always `target/tmp/screenshots`, and
/// `$TBQUERY_SCREENSHOTS` too when set.
struct Screenshots(Vec<PathBuf>);

impl Screenshots {
    fn new() -> Self {
        let mut dirs = vec![Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots")];
        dirs.extend(std::env::var_os("TBQUERY_SCREENSHOTS").map(PathBuf::from));
        for dir in &dirs {
            std::fs::create_dir_all(dir).unwrap();
        }
        Screenshots(dirs)
    }
}

async fn screenshot(client: &Client, shots: &Screenshots, name: &str) {
    screenshot_at(client, shots, name, "window.scrollTo(0, 0);").await;
}

/// A screenshot after `scroll` (a script) has brought a part of the page into view.
async fn screenshot_at(client: &Client, shots: &Screenshots, name: &str, scroll: &str) {
    client.execute(scroll, vec![]).await.unwrap();
    let picture = client.screenshot().await.unwrap();
    for dir in &shots.0 {
        std::fs::write(dir.join(format!("{name}.png")), &picture).unwrap();
    }
}

/// Pages worth a picture beyond each game's second ply: a position deep in a
/// table, reached by following the line of perfect play `plies` times, at a
/// desktop and at a phone's width.
async fn showcase(client: &Client, addr: SocketAddr, shots: &Screenshots) {
    let pages = [
        (
            "chess-kqvkr",
            "game=chess&position=8/8/8/8/3k4/8/2r5/KQ6 w - - 0 1",
            3,
            (1280, 1000),
        ),
        ("dots-midgame", "game=dots", 12, (1280, 1000)),
        (
            "abapa-12-seeds",
            "game=abapa&position=0 2 1 0 3 1 / 1 0 2 1 0 1",
            4,
            (1280, 1000),
        ),
        (
            "phone-chess",
            "game=chess&position=8/8/8/8/3k4/8/2r5/KQ6 w - - 0 1",
            1,
            (412, 1400),
        ),
    ];
    for (name, query, plies, (width, height)) in pages {
        client.set_window_size(width, height).await.unwrap();
        client
            .goto(&format!("http://{addr}/?{}", query.replace(' ', "%20")))
            .await
            .unwrap();
        for ply in 0..plies {
            until(client, &format!("{name}: ply {ply}"), SETTLED).await;
            // Each of these pages has a line to follow: a refused line (its
            // error in #line-end) fails here with the page's text.
            let line = format!("{name}: the line at ply {ply}");
            until(
                client,
                &line,
                "document.querySelectorAll('#line a').length > 0",
            )
            .await;
            click(client, "#line a").await;
            until(
                client,
                &format!("{name}: ply {}", ply + 1),
                &format!("app.trail.moves.length === {}", ply + 1),
            )
            .await;
        }
        until(client, name, SETTLED).await;
        if name.starts_with("phone") {
            // On a phone the value comes right after the board, the game's
            // description last, below the moves.
            let top =
                |id: &str| format!("document.getElementById('{id}').getBoundingClientRect().top");
            let tops = value(
                client,
                &format!(
                    "[{}, {}, {}, {}]",
                    top("board"),
                    top("said"),
                    top("moves"),
                    top("about")
                ),
            )
            .await;
            let tops: Vec<f64> = tops
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_f64().unwrap())
                .collect();
            assert!(tops.windows(2).all(|w| w[0] < w[1]), "{name}: {tops:?}");
            assert!(
                tops[1] < 600.0,
                "{name}: the value starts at {} px",
                tops[1]
            );
        }
        screenshot(client, shots, name).await;
    }
    client.set_window_size(1280, 1000).await.unwrap();
}

/// Clicks the element `selector` finds.
async fn click(client: &Client, selector: &str) {
    client
        .find(Locator::Css(selector))
        .await
        .unwrap_or_else(|e| panic!("no {selector}: {e}"))
        .click()
        .await
        .unwrap();
}

/// Clicks a place of the board: the shape drawn last (on top) where several
/// carry it (a disc on its square).
async fn click_place(client: &Client, place: &str) {
    let selector = format!("#board [data-place=\"{place}\"]");
    let shapes = client.find_all(Locator::Css(&selector)).await.unwrap();
    let top = shapes
        .last()
        .unwrap_or_else(|| panic!("no place {place} on the board"));
    top.click().await.unwrap();
}

/// Makes a move by clicking its places on the board, step by step, clicking the
/// last place again where the clicks could still begin a longer move.
async fn click_a_move(client: &Client, id: &str) {
    let before = value(client, "app.trail.moves.length").await;
    let moves = value(client, "app.view.moves.filter(m => m.places.length)").await;
    let moves = moves.as_array().unwrap();
    assert!(!moves.is_empty(), "{id}: no move to click");
    let chosen = &moves[moves.len() / 2];
    let places: Vec<String> = chosen["places"][0]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|step| {
            step.as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap().to_string())
        })
        .collect();
    for place in &places {
        click_place(client, place).await;
    }
    let moved = format!("app.trail.moves.length > {before}");
    if value(client, &moved).await != Json::Bool(true) {
        click_place(client, places.last().unwrap()).await;
    }
    until(
        client,
        &format!("{id}: the move {} made by clicking", chosen["move"]),
        &moved,
    )
    .await;
    let made = value(client, "app.trail.moves[app.trail.moves.length - 1].move").await;
    assert_eq!(made, chosen["move"], "{id}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_is_explored_and_played_in_a_real_browser() {
    let Some((chromium, driver)) = browser() else {
        return;
    };
    let started = Instant::now();
    let tables = common::default_tables();
    let addr = start_server(&tables).await;
    let profile = tempfile::tempdir().unwrap();
    let (_driver, client) = start_browser(&chromium, &driver, profile.path(), &[]).await;
    let shots = Screenshots::new();

    let games = ask(addr, "/api/v1/games");
    for game in games["games"].as_array().unwrap() {
        let id = game["game"].as_str().unwrap();
        client
            .goto(&format!("http://{addr}/?game={id}"))
            .await
            .unwrap();
        until(
            &client,
            &format!("{id}: its start"),
            "app.view && app.view.board",
        )
        .await;
        check_values(&client, addr, id).await;

        click_a_move(&client, id).await;
        // The move that led here is marked on the board.
        let marked = "!app.trail.moves[0].landed || !app.trail.moves[0].landed.length \
            || document.querySelector('#board [class*=\"last\"]')";
        until(&client, &format!("{id}: the last move marked"), marked).await;
        let after = value(&client, "location.search").await;
        until(
            &client,
            &format!("{id}: the view after the move"),
            "app.view && app.view.board && app.trail.moves.length === 1",
        )
        .await;
        check_values(&client, addr, id).await;

        // The line of perfect play: its first step is a link to follow.
        until(&client, &format!("{id}: the line"), "document.querySelectorAll('#line a').length > 0 || document.getElementById('line-end').textContent").await;
        if value(&client, "document.querySelectorAll('#line a').length").await != json!(0) {
            let step = value(&client, "document.querySelector('#line a').textContent").await;
            click(&client, "#line a").await;
            until(
                &client,
                &format!("{id}: the line followed"),
                "app.trail.moves.length === 2",
            )
            .await;
            assert_eq!(
                value(&client, "app.trail.moves[1].move").await,
                step,
                "{id}"
            );
            check_values(&client, addr, id).await;
            // The browser's back and forward buttons walk the moves.
            // The page's forward button goes nowhere until there is a step
            // ahead.
            assert_eq!(
                value(&client, "document.getElementById('forward').disabled").await,
                json!(true),
                "{id}: forward with nothing ahead"
            );
            client.back().await.unwrap();
            until(
                &client,
                &format!("{id}: back"),
                "app.trail.moves.length === 1 && !document.getElementById('forward').disabled",
            )
            .await;
            assert_eq!(
                value(&client, "location.search").await,
                after,
                "{id}: the URL of each position"
            );
            client.forward().await.unwrap();
            until(
                &client,
                &format!("{id}: forward"),
                "app.trail.moves.length === 2 && document.getElementById('forward').disabled",
            )
            .await;
        }
        until(&client, &format!("{id}: the page"), SETTLED).await;
        screenshot(&client, &shots, id).await;
        client.back().await.unwrap();
        client.back().await.unwrap();
        until(
            &client,
            &format!("{id}: back to the start"),
            "app.trail.moves.length === 0",
        )
        .await;
    }

    // An unknown game is said, and the first game shown instead.
    client
        .goto(&format!("http://{addr}/?game=nosuch"))
        .await
        .unwrap();
    until(
        &client,
        "the unknown game said",
        "app.view && document.getElementById('notice').textContent.includes(\"no game 'nosuch'\")",
    )
    .await;
    showcase(&client, addr, &shots).await;
    index_table_and_api_pages(&client, addr, &shots).await;
    edit_a_chess_position(&client, addr, &shots).await;
    promote_a_pawn(&client, addr, &shots).await;
    fifty_move_rule(&client, addr, &shots).await;
    chess_play_hides_values(&client, addr, &shots).await;
    play_to_the_end(&client, addr).await;
    chart_goes_back(&client, addr, &shots).await;
    let pages = [
        (
            "the index",
            format!("http://{addr}/"),
            "document.querySelectorAll('#cards .picture svg').length === app.games.length",
        ),
        (
            "KQvK's statistics",
            format!("http://{addr}/?game=chess&table=KQvK"),
            "document.querySelector('#table-stats svg.histogram')",
        ),
        (
            "Euler's page",
            format!("http://{addr}/?game=euler"),
            SETTLED,
        ),
        (
            "a KQvKR page",
            format!("http://{addr}/?game=chess&position=8/8/8/8/3k4/8/2r5/KQ6%20w%20-%20-%200%201"),
            SETTLED,
        ),
    ];
    for (name, url, ready) in pages {
        let took = load_time(&client, &url, ready).await;
        eprintln!("{name} ready {took:.0} ms after navigation");
    }
    computers_and_levels(&client, addr, &shots).await;
    legends_and_text_editing(&client, addr).await;
    client.close().await.unwrap();
    dark_mode(&chromium, &driver, addr, &shots).await;
    eprintln!(
        "browser tests: {} games explored and played in {:.1} s",
        games["games"].as_array().unwrap().len(),
        started.elapsed().as_secs_f64()
    );
}

/// The landing page's cards and table index, a table's page, and the API
/// page whose every example answers.
async fn index_table_and_api_pages(client: &Client, addr: SocketAddr, shots: &Screenshots) {
    let games = ask(addr, "/api/v1/games")["games"]
        .as_array()
        .unwrap()
        .len();
    client.goto(&format!("http://{addr}/")).await.unwrap();
    until(
        client,
        "every game's card with its picture",
        &format!("document.querySelectorAll('#cards .card .picture svg').length === {games}"),
    )
    .await;
    assert_eq!(
        value(client, "document.getElementById('explorer').hidden").await,
        json!(true)
    );
    let groups = value(
        client,
        "[...document.querySelectorAll('#endings h3')].map(h => h.textContent)",
    )
    .await;
    assert!(
        groups
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g.as_str().unwrap().starts_with("3 pieces")),
        "{groups}"
    );
    screenshot(client, shots, "index").await;

    client
        .goto(&format!("http://{addr}/?game=chess&table=KQvK"))
        .await
        .unwrap();
    until(
        client,
        "KQvK's page",
        "document.querySelector('#table-stats .stat-table svg.histogram')",
    )
    .await;
    let counts = value(
        client,
        "document.querySelector('#table-stats .counts').textContent",
    )
    .await;
    let stats = ask(addr, "/api/v1/chess/stats?tier=KQvK");
    let positions = stats["tables"][0]["summary"]["positions"].as_u64().unwrap();
    let shown = positions
        .to_string()
        .as_bytes()
        .rchunks(3)
        .rev()
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect::<Vec<_>>()
        .join(",");
    assert!(
        counts
            .as_str()
            .unwrap()
            .starts_with(&format!("{shown} positions: ")),
        "{counts}"
    );
    // The longest mate is a link that opens it on the board.
    let example = value(client, "document.querySelector('#table-stats dd a').href").await;
    assert!(example.as_str().unwrap().contains("position="), "{example}");
    // The tables it reads, each a link to its own page.
    assert_eq!(
        value(
            client,
            "[...document.querySelectorAll('#table-stats .reads a')].map(a => a.textContent + ' ' + new URL(a.href).searchParams.get('table')).join(',')"
        )
        .await,
        json!("KvK KvK")
    );
    screenshot(client, shots, "table-kqvk").await;

    // Every table file with its size and SHA-256, as its JSON has them.
    client
        .goto(&format!("http://{addr}/?files=all"))
        .await
        .unwrap();
    until(
        client,
        "the files page",
        "document.querySelector('table.files tbody tr')",
    )
    .await;
    let files = ask(addr, "/api/v1/tables");
    let first = &files["tables"][0];
    assert_eq!(
        value(
            client,
            "[...document.querySelector('table.files tbody tr').cells].map(c => c.textContent)"
        )
        .await,
        json!([
            first["file"],
            first["game"],
            first["bytes"].as_u64().unwrap().to_string(),
            first["sha256"]
        ])
    );
    assert_eq!(
        value(
            client,
            "document.querySelectorAll('table.files tbody tr').length"
        )
        .await,
        json!(files["tables"].as_array().unwrap().len())
    );
    screenshot(client, shots, "files").await;

    client.goto(&format!("http://{addr}/api")).await.unwrap();
    let links = value(client, "[...document.querySelectorAll('#api-page a')].map(a => a.getAttribute('href')).filter(h => h.startsWith('/api/') || h.startsWith('/standard') || h === '/health')").await;
    let links = links.as_array().unwrap();
    assert!(links.len() >= 10, "{links:?}");
    for link in links {
        let link = link.as_str().unwrap().replace(' ', "%20");
        let response = ureq::get(&format!("http://{addr}{link}")).call();
        assert!(response.is_ok(), "{link}: {response:?}");
    }
}

async fn edit_a_chess_position(client: &Client, addr: SocketAddr, shots: &Screenshots) {
    client
        .goto(&format!("http://{addr}/?game=chess"))
        .await
        .unwrap();
    until(client, "chess", "app.view && app.view.board").await;
    click(client, "#edit").await;
    // A piece's tool is its picture, named for screen readers; the others
    // say what they do.
    assert_eq!(
        value(
            client,
            "[...document.querySelectorAll('#tools button')].filter((b) => b.querySelector('svg')).map((b) => b.getAttribute('aria-label')).join(',')"
        )
        .await,
        json!("white king,white queen,white rook,white bishop,white knight,white pawn,black king,black queen,black rook,black bishop,black knight,black pawn")
    );
    assert_eq!(
        value(
            client,
            "document.querySelector('[data-tool=\"q\"] text').textContent"
        )
        .await,
        json!("\u{265B}")
    );
    let palette = "document.getElementById('tools').scrollIntoView();";
    screenshot_at(client, shots, "editor", palette).await;
    // Take the black king away: the board is drawn and the reason given.
    click(client, "[data-tool=\"clear\"]").await;
    click_place(client, "c3").await;
    until(
        client,
        "the king removed",
        "app.trail.start.startsWith('8/8/8/8/8/8/8/KQ6')",
    )
    .await;
    until(
        client,
        "the reason",
        "document.getElementById('error').textContent.includes('Black has 0 kings')",
    )
    .await;
    assert_eq!(
        value(
            client,
            "document.querySelectorAll('#board [data-place]').length"
        )
        .await,
        json!(64)
    );
    // Put it back elsewhere, add a black rook, and give Black the move.
    click(client, "[data-tool=\"k\"]").await;
    click_place(client, "e5").await;
    click(client, "[data-tool=\"r\"]").await;
    click_place(client, "h8").await;
    click(client, "[data-tool=\"turn\"]").await;
    let fen = "7r/8/8/4k3/8/8/8/KQ6 b - - 0 1";
    until(
        client,
        "the edited FEN",
        &format!("document.getElementById('position').value === '{fen}'"),
    )
    .await;
    until(client, "its value", "app.view.answer").await;
    let view = ask(
        addr,
        &format!("/api/v1/chess/view?position={}", encode(fen)),
    );
    let said = value(client, "document.getElementById('said').textContent").await;
    assert_eq!(said, view["said"]);
    // Flipped, Black is at the bottom: h8 drawn top left; the address keeps it.
    click(client, "#flip").await;
    let flipped = "(() => { const at = (p) => document.querySelector(`#board [data-place=\"${p}\"]`); \
        return at('h8') && Number(at('h8').getAttribute('x')) < Number(at('a8').getAttribute('x')) \
        && Number(at('a1').getAttribute('y')) < Number(at('a8').getAttribute('y')); })()";
    until(client, "the board flipped", flipped).await;
    assert!(
        value(client, "location.search")
            .await
            .as_str()
            .unwrap()
            .contains("flip=yes")
    );
    click(client, "#flip").await;
    until(
        client,
        "the board unflipped",
        "!location.search.includes('flip=yes')",
    )
    .await;
    // The whole board emptied at once.
    click(client, "[data-tool=\"empty\"]").await;
    until(
        client,
        "the empty board",
        "document.getElementById('position').value === '8/8/8/8/8/8/8/8 b - - 0 1'",
    )
    .await;
    // The FEN typed in is read too.
    click(client, "#edit").await;
    let input = client.find(Locator::Id("position")).await.unwrap();
    input.clear().await.unwrap();
    input
        .send_keys("8/8/8/8/8/2k5/8/KQ6 w - - 0 1\n")
        .await
        .unwrap();
    until(
        client,
        "the FEN read",
        "app.view && app.view.said === 'White mates in 6'",
    )
    .await;
    // A piece dragged to its square moves there.
    let from = client
        .find(Locator::Css("#board [data-place=\"b1\"]"))
        .await
        .unwrap();
    let to = client
        .find(Locator::Css("#board [data-place=\"e4\"]"))
        .await
        .unwrap();
    let drag = MouseActions::new("mouse".to_string())
        .then(PointerAction::MoveToElement {
            element: from,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::MoveToElement {
            element: to,
            duration: Some(Duration::from_millis(200)),
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    client.perform_actions(drag).await.unwrap();
    until(
        client,
        "the queen dragged to e4",
        "app.trail.moves.length === 1 && app.trail.moves[0].move === 'Qe4'",
    )
    .await;
}

/// A pawn clicked to the last rank: the page asks which piece, and the piece
/// chosen is the move made. The editor places pawns too.
async fn promote_a_pawn(client: &Client, addr: SocketAddr, shots: &Screenshots) {
    client
        .goto(&format!(
            "http://{addr}/?game=chess&position={}",
            encode("k7/4P3/1K6/8/8/8/8/8 w - - 0 1")
        ))
        .await
        .unwrap();
    until(
        client,
        "KPvK",
        "app.view && app.view.said === 'White mates in 1'",
    )
    .await;
    click_place(client, "e7").await;
    click_place(client, "e8").await;
    until(
        client,
        "the choice of piece",
        "!document.getElementById('choice').hidden",
    )
    .await;
    let offered = value(
        client,
        "[...document.querySelectorAll('#choice button')].map(b => b.textContent)",
    )
    .await;
    assert_eq!(offered, json!(["e8=Q#", "e8=R#", "e8=B", "e8=N"]));
    screenshot(client, shots, "chess-promotion").await;
    click(client, "#choice [data-move=\"e8=N\"]").await;
    until(
        client,
        "the knight chosen",
        "app.trail.moves.length === 1 && app.trail.moves[0].move === 'e8=N' && document.getElementById('choice').hidden",
    )
    .await;
    // A pawn placed with the editor on the last rank: the reason is shown.
    click(client, "#edit").await;
    click(client, "[data-tool=\"p\"]").await;
    click_place(client, "a1").await;
    until(
        client,
        "the pawn's reason",
        "document.getElementById('error').textContent.includes('pawn')",
    )
    .await;
}

/// DTZ beside DTM, and the 50-move rule read with the halfmove clock the editor
/// sets: KPvK's win in 22 moves needs its pawn to move within 9 plies, so with
/// 95 on the clock it is a cursed win, as lichess's `/standard` says too.
async fn fifty_move_rule(client: &Client, addr: SocketAddr, shots: &Screenshots) {
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    client
        .goto(&format!(
            "http://{addr}/?game=chess&position={}",
            encode(fen)
        ))
        .await
        .unwrap();
    until(
        client,
        "DTZ beside DTM",
        "app.view && app.view.beside && app.view.beside.length === 1",
    )
    .await;
    let beside = value(client, "document.getElementById('beside').textContent").await;
    assert_eq!(
        beside,
        json!("DTZ: White wins, 9 plies to a capture or pawn move; a win under the 50-move rule.")
    );
    let kd2 = "document.querySelector('#moves [data-move=\"Kd2\"]')";
    let shown = value(client, &format!("{kd2}.textContent")).await;
    assert_eq!(shown, json!("Kd2mate in 22 (43 plies)win, DTZ 9"));
    // The clock set in the editor: the same win is cursed now.
    click(client, "#edit").await;
    let input = client.find(Locator::Id("clock")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys("95\n").await.unwrap();
    until(
        client,
        "the clock set",
        "app.view && app.view.clock && app.view.clock.count === 95 \
         && app.trail.start === '4k3/8/8/8/8/8/4P3/4K3 w - - 95 1' \
         && document.querySelector('#beside .cursed-win')",
    )
    .await;
    let lichess = ask(
        addr,
        &format!(
            "/standard?fen={}",
            encode("4k3/8/8/8/8/8/4P3/4K3 w - - 95 1")
        ),
    );
    assert_eq!(lichess["category"], json!("cursed-win"));
    let classes = value(
        client,
        "[...document.querySelectorAll('#moves .move')].map(b => [b.dataset.move, b.querySelector('.beside').className])",
    )
    .await;
    for (shown, theirs) in classes.as_array().unwrap().iter().zip(
        lichess["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["san"] == "Kd2" || m["san"] == "Kf2"),
    ) {
        assert_eq!(theirs["category"], json!("blessed-loss"), "{theirs}");
        assert_eq!(shown[0], theirs["san"]);
        assert!(shown[1].as_str().unwrap().contains("cursed-win"), "{shown}");
    }
    // Its words say so too, not its colour alone.
    let words = value(
        client,
        "document.querySelector('#moves [data-move=\"Kd2\"] .beside').textContent",
    )
    .await;
    assert_eq!(words, json!("cursed win, DTZ 9"));
    // A move keeps the clock going.
    click(client, "#edit").await;
    click(client, "#moves [data-move=\"Kd2\"]").await;
    until(
        client,
        "the clock after Kd2",
        "app.trail.moves.length === 1 && app.view.clock && app.view.clock.count === 96",
    )
    .await;
    // The FEN keeps its move number and advances it after Black's move.
    assert_eq!(
        value(client, "app.view.position").await,
        json!("4k3/8/8/8/8/8/3KP3/8 b - - 96 1")
    );
    click(client, "#moves [data-move=\"Kd7\"]").await;
    until(
        client,
        "the move number after Kd7",
        "app.trail.moves.length === 2 && app.view.position === '8/3k4/8/8/8/8/3KP3/8 w - - 97 2'",
    )
    .await;
    screenshot(client, shots, "chess-fifty-move-rule").await;
}

/// Chess in play mode: no value in the document until a hint, so neither a
/// move's width nor a screen reader nor a copy tells one.
async fn chess_play_hides_values(client: &Client, addr: SocketAddr, shots: &Screenshots) {
    let fen = "8/8/8/8/8/2k5/8/KQ6 w - - 0 1";
    client
        .goto(&format!(
            "http://{addr}/?game=chess&mode=play&players=human,computer&position={}",
            encode(fen)
        ))
        .await
        .unwrap();
    until(
        client,
        "chess in play mode",
        "app.view && app.view.answer && document.querySelectorAll('#moves .move').length > 10",
    )
    .await;
    // The page knows the values (a draw among the queen's moves, wins)...
    let kinds = value(
        client,
        "[...new Set(app.view.answer.moves.map(m => m.value))].sort()",
    )
    .await;
    assert_eq!(kinds, json!(["draw", "win"]));
    // ... and the document holds none of them: each move is its name alone.
    let texts = value(
        client,
        "[...document.querySelectorAll('#moves .move')].map(b => [b.dataset.move, b.textContent])",
    )
    .await;
    for pair in texts.as_array().unwrap() {
        assert_eq!(pair[0], pair[1], "{pair}");
    }
    let leaks = value(
        client,
        "document.querySelectorAll('#moves .value').length + document.getElementById('beside').textContent.length \
         + document.getElementById('line').textContent.length",
    )
    .await;
    assert_eq!(leaks, json!(0));
    for word in ["mate in", "draw", "DTZ", "plies"] {
        let found = value(
            client,
            &format!("document.querySelector('main').innerText.includes('{word}')"),
        )
        .await;
        assert_eq!(found, json!(false), "the page's text says '{word}'");
    }
    // Moves whose names are as long are as wide, whatever their values.
    let widths = value(
        client,
        "Object.values([...document.querySelectorAll('#moves .move')].reduce((by, b) => \
         { (by[b.dataset.move.length] ||= new Set()).add(Math.round(b.getBoundingClientRect().width)); return by; }, {})).map(s => s.size)",
    )
    .await;
    assert!(
        widths.as_array().unwrap().iter().all(|n| n == 1),
        "moves of one name length differ in width: {widths}"
    );
    screenshot(client, shots, "chess-play-hidden").await;
}

/// Euler against the computer, the person (the test) moving first with the
/// first move listed each time: the computer wins, the empty board being lost
/// for the first player.
async fn play_to_the_end(client: &Client, addr: SocketAddr) {
    client
        .goto(&format!(
            "http://{addr}/?game=euler&mode=play&players=human,computer"
        ))
        .await
        .unwrap();
    until(client, "play mode", "app.view && app.view.board").await;
    // Nothing gives the game away: not the heading, the groups, the order or
    // the colours of the moves, nor the value chart; there is nowhere to go back to.
    let said = value(client, "document.getElementById('said').textContent").await;
    assert!(
        said.as_str().unwrap().contains("values are hidden"),
        "{said}"
    );
    let groups = value(
        client,
        "[...document.querySelectorAll('#moves h3')].map(h => h.textContent)",
    )
    .await;
    assert_eq!(groups, json!(["moves"]));
    let by_name = "(() => { const names = [...document.querySelectorAll('#moves .move .name')].map(n => n.textContent); \
        return names.join() === [...names].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).join(); })()";
    assert_eq!(
        value(client, by_name).await,
        json!(true),
        "by name, not best first"
    );
    let coloured = "document.querySelectorAll('#moves .move.best, #moves .move.win, #moves .move.loss, #moves .move.draw').length";
    assert_eq!(value(client, coloured).await, json!(0));
    assert_eq!(
        value(client, "document.getElementById('back').disabled").await,
        json!(true)
    );
    assert_eq!(
        value(client, "document.getElementById('line-box').hidden").await,
        json!(true)
    );
    // One cell clicked is a move, and the start of longer ones: it is offered
    // beside the board, and one more click makes it.
    click_place(client, "a1").await;
    until(client, "a1 offered", "!document.getElementById('choice').hidden && document.querySelector('#choice button[data-move=\"a1\"]')").await;
    click(client, "#choice button[data-move=\"a1\"]").await;
    until(
        client,
        "a1 played",
        "app.trail.moves.length >= 1 && app.trail.moves[0].move === 'a1'",
    )
    .await;
    for _ in 0..16 {
        if value(client, "app.view.over").await == json!(true) {
            break;
        }
        until(client, "the person's turn", "app.view && !app.busy && app.players[(() => { let s = 0; for (const m of app.trail.moves) if (!m.moves_again) s = 1 - s; return s; })()] === 'human' || app.view.over").await;
        if value(client, "app.view.over").await == json!(true) {
            break;
        }
        let played = value(client, "app.trail.moves.length").await;
        click(client, "#moves .move").await;
        until(
            client,
            "the computer's reply",
            &format!("app.trail.moves.length >= {} + 2 || app.view.over", played),
        )
        .await;
        // The list redrawn under the pointer previews nothing: the board shows
        // the position played, and the heading still hides its value.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let ahead = "document.getElementById('board').classList.contains('previewing') || !document.getElementById('preview-note').hidden";
        assert_eq!(
            value(client, ahead).await,
            json!(false),
            "the board ran ahead"
        );
        assert_eq!(
            value(client, "document.getElementById('back').disabled").await,
            json!(false)
        );
        if value(client, "app.view.over").await != json!(true) {
            let said = value(client, "document.getElementById('said').textContent").await;
            assert!(!said.as_str().unwrap().contains(" in "), "{said}");
        }
    }
    until(
        client,
        "the end",
        "app.view.over && document.getElementById('status').textContent.includes('wins')",
    )
    .await;
    let status = status_line(client).await;
    assert!(
        status
            .as_str()
            .unwrap()
            .contains("second player (computer) wins"),
        "{status}"
    );
    // Over: everything is shown.
    let said = value(client, "document.getElementById('said').textContent").await;
    assert_eq!(said, json!("The game is over"));
    until(
        client,
        "the chart after the game",
        "document.querySelector('#chart svg')",
    )
    .await;
    // The moves played are listed beside the chart; a point of the chart, or a
    // move of the list, goes back to the position after it.
    let played = value(client, "document.querySelectorAll('#played a').length").await;
    assert_eq!(played, value(client, "app.trail.moves.length").await);
    let title = value(client, "document.title").await;
    let title = title.as_str().unwrap();
    assert!(
        title.starts_with("euler ") && title.ends_with(": over - tablebases"),
        "{title}"
    );
    // Chess says White and Black, whoever moves first.
    let black = encode("8/8/8/8/8/2k5/8/KQ6 b - - 0 1");
    client
        .goto(&format!("http://{addr}/?game=chess&position={black}"))
        .await
        .unwrap();
    until(
        client,
        "chess, Black to move",
        "app.view && app.view.board && document.getElementById('status').textContent",
    )
    .await;
    let status = status_line(client).await;
    assert!(
        status.as_str().unwrap().starts_with("To move: Black."),
        "{status}"
    );
    let mated = encode("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1");
    client
        .goto(&format!("http://{addr}/?game=chess&position={mated}"))
        .await
        .unwrap();
    until(
        client,
        "chess, checkmate",
        "app.view && app.view.over && document.getElementById('status').textContent",
    )
    .await;
    let status = status_line(client).await;
    assert_eq!(status, json!("The game is over. White wins."));
}

/// Where colours mean sides a legend says whose are which; a game edited as
/// text says so when its board is clicked in the editor.
async fn legends_and_text_editing(client: &Client, addr: SocketAddr) {
    client
        .goto(&format!("http://{addr}/?game=lgame"))
        .await
        .unwrap();
    until(client, "the L-Game", SETTLED).await;
    let legend = value(client, "document.getElementById('legend').hidden ? '' : document.getElementById('legend').textContent").await;
    assert!(
        legend
            .as_str()
            .unwrap()
            .contains("the first player (to move)"),
        "{legend}"
    );
    assert!(
        legend.as_str().unwrap().contains("the second player"),
        "{legend}"
    );
    assert_eq!(
        value(
            client,
            "document.querySelectorAll('#legend .swatch').length"
        )
        .await,
        json!(2)
    );
    click(client, "#edit").await;
    click_place(client, "a1").await;
    until(
        client,
        "the editor's note",
        "document.getElementById('choice').textContent.includes('edited as text')",
    )
    .await;
    // Euler's board has no sides: no legend.
    client
        .goto(&format!("http://{addr}/?game=euler"))
        .await
        .unwrap();
    until(client, "Euler", SETTLED).await;
    assert_eq!(
        value(client, "document.getElementById('legend').hidden").await,
        json!(true)
    );
}

/// The page in a browser that prefers dark: dark paper, light ink.
async fn dark_mode(chromium: &Path, driver: &Path, addr: SocketAddr, shots: &Screenshots) {
    let profile = tempfile::tempdir().unwrap();
    let dark = ["--blink-settings=preferredColorScheme=0"];
    let (_driver, client) = start_browser(chromium, driver, profile.path(), &dark).await;
    let fen = encode("8/8/8/8/3k4/8/2r5/KQ6 w - - 0 1");
    client
        .goto(&format!("http://{addr}/?game=chess&position={fen}"))
        .await
        .unwrap();
    until(&client, "chess in the dark", SETTLED).await;
    assert_eq!(
        value(
            &client,
            "matchMedia('(prefers-color-scheme: dark)').matches"
        )
        .await,
        json!(true)
    );
    let paper = value(&client, "getComputedStyle(document.body).backgroundColor").await;
    assert_eq!(paper, json!("rgb(27, 26, 24)"));
    screenshot(&client, shots, "dark-chess").await;
    client.close().await.unwrap();
}

/// The value chart's points and the moves played beside it go back to a ply.
async fn chart_goes_back(client: &Client, addr: SocketAddr, shots: &Screenshots) {
    let fen = encode("8/8/8/8/8/2k5/8/KQ6 w - - 0 1");
    client
        .goto(&format!("http://{addr}/?game=chess&position={fen}"))
        .await
        .unwrap();
    until(client, "KQvK", SETTLED).await;
    for ply in 1..=3 {
        click(client, "#line a").await;
        until(
            client,
            "a ply of the line",
            &format!("app.trail.moves.length === {ply} && !app.busy"),
        )
        .await;
        until(client, "its view", SETTLED).await;
    }
    until(
        client,
        "the chart",
        "document.querySelectorAll('#chart circle[data-ply]').length === 3",
    )
    .await;

    let chart = "document.getElementById('history-box').scrollIntoView();";
    screenshot_at(client, shots, "value-chart", chart).await;
    click(client, "#chart circle[data-ply=\"1\"]").await;

    until(client, "back to ply 1", "app.trail.moves.length === 1").await;
    until(
        client,
        "the chart of one ply",
        "document.querySelectorAll('#played a').length === 1",
    )
    .await;
    client.back().await.unwrap();
    until(client, "undone by back", "app.trail.moves.length === 3").await;
    click(client, "#played a[data-ply=\"2\"]").await;
    until(client, "back to ply 2", "app.trail.moves.length === 2").await;
}

/// How long a page takes to show what it is for, from navigation start, in
/// milliseconds (figures for the notes; not asserted).
async fn load_time(client: &Client, url: &str, ready: &str) -> f64 {
    client.goto(url).await.unwrap();
    until(client, url, ready).await;
    value(client, "performance.now()").await.as_f64().unwrap()
}

/// What the terminal offers, on the page: two computers play a whole game, a
/// computer below level 10 makes its deliberate mistake and says so, and
/// Abapa's computer searches by the algorithm and depth chosen.
async fn computers_and_levels(client: &Client, addr: SocketAddr, shots: &Screenshots) {
    // The thesis's 21 game: the first player names 16 and wins.
    client
        .goto(&format!(
            "http://{addr}/?game=game21&mode=play&players=computer,computer"
        ))
        .await
        .unwrap();
    until(
        client,
        "two computers to the end",
        "app.view && app.view.over && document.getElementById('status').textContent.includes('wins')",
    )
    .await;
    let status = status_line(client).await;
    assert!(
        status
            .as_str()
            .unwrap()
            .contains("first player (computer) wins"),
        "{status}"
    );
    assert_eq!(value(client, "app.trail.moves[0].move").await, json!("16"));

    // Nim 3 4 5 is won, but at level 0 the computer throws the win away.
    client
        .goto(&format!(
            "http://{addr}/?game=nim&mode=play&players=computer,human&level=0&position=3+4+5"
        ))
        .await
        .unwrap();
    until(
        client,
        "the computer's mistake",
        "app.trail.moves.length === 1 && app.view && !app.busy",
    )
    .await;
    // Why it played so is kept for a hint, which says it.
    let status = status_line(client).await;
    assert!(!status.as_str().unwrap().contains("mistake"), "{status}");
    click(client, "#hint").await;
    until(
        client,
        "the hint",
        "app.hint && document.getElementById('status').textContent.includes('deliberate mistake')",
    )
    .await;
    let status = status_line(client).await;
    assert!(
        status
            .as_str()
            .unwrap()
            .contains("a deliberate mistake, at level 0"),
        "{status}"
    );
    assert_eq!(
        value(client, "app.trail.moves[0].value.value").await,
        json!("loss")
    );
    assert_eq!(
        value(client, "document.getElementById('level').value").await,
        json!("0")
    );

    // Abapa by minimax to 3 plies: the search controls show, and the note
    // names the algorithm, the depth and the positions searched.
    client
        .goto(&format!(
            "http://{addr}/?game=abapa&mode=play&players=computer,human&algorithm=minimax&depth=3"
        ))
        .await
        .unwrap();
    until(
        client,
        "Abapa's searched move",
        "app.trail.moves.length === 1 && app.view && !app.busy",
    )
    .await;
    assert_eq!(
        value(client, "document.getElementById('search').hidden").await,
        json!(false)
    );
    assert_eq!(
        value(client, "document.getElementById('depth').value").await,
        json!("3")
    );
    let status = status_line(client).await;
    assert!(!status.as_str().unwrap().contains("minimax"), "{status}");
    assert!(
        !status.as_str().unwrap().contains("beyond the tables"),
        "{status}"
    );
    click(client, "#hint").await;
    until(
        client,
        "the hint",
        "app.hint && document.getElementById('status').textContent.includes('minimax')",
    )
    .await;
    let status = status_line(client).await;
    assert!(
        status.as_str().unwrap().contains("minimax to 3 plies"),
        "{status}"
    );
    until(
        client,
        "the page",
        "app.view && app.view.board && !app.busy",
    )
    .await;
    screenshot(client, shots, "abapa-play").await;
}
