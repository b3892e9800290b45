//! The HTTP server, with real requests on loopback.

mod common;

use query::Library;
use std::net::SocketAddr;

/// Starts the server on a free loopback port in the background.
fn start(dir: &std::path::Path) -> SocketAddr {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let router = query::serve::router(Library::new(dir));
    std::thread::spawn(move || {
        runtime.block_on(async { axum::serve(listener, router).await.unwrap() })
    });
    addr
}

/// GET a path; returns the status and the JSON body.
fn get(addr: SocketAddr, path: &str) -> (u16, serde_json::Value) {
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .new_agent();
    let mut response = agent.get(&format!("http://{addr}{path}")).call().unwrap();
    let status = response.status().as_u16();
    let body = response.body_mut().read_to_string().unwrap();
    (
        status,
        serde_json::from_str(&body).unwrap_or(serde_json::Value::String(body)),
    )
}

#[test]
fn answers_probes_and_refuses_bad_requests_with_the_right_status() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_euler(dir.path());
    let addr = start(dir.path());

    let (status, body) = get(addr, "/api/v1/euler?position=xxxx/xxxx/xxxx/xx..");
    assert_eq!(status, 200);
    assert_eq!(
        (body["value"].as_str(), body["distance"].as_u64()),
        (Some("win"), Some(2))
    );
    assert_eq!(body["moves"][0]["move"], "c4");

    let (status, body) = get(addr, "/api/v1/euler?position=..../..../....");
    assert_eq!(status, 400);
    assert!(
        body["error"].as_str().unwrap().contains("expected 4 rows"),
        "{body}"
    );

    let (status, body) = get(addr, "/api/v1/euler");
    assert_eq!(status, 400);
    assert!(
        body["error"].as_str().unwrap().contains("position"),
        "{body}"
    );

    let (status, body) = get(addr, "/api/v1/checkers?position=x");
    assert_eq!(status, 404);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("unknown game 'checkers'"),
        "{body}"
    );

    let (status, body) = get(addr, "/api/v1/games");
    assert_eq!(status, 200);
    assert_eq!(body["games"][0]["game"], "euler");
    assert_eq!(body["games"][0]["tables"][0]["present"], true);
    assert_eq!(body["games"][0]["start"], "..../..../..../....");
    // Every game of the registry, in its order.
    let ids: Vec<&str> = body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap())
        .collect();
    let registry: Vec<&str> = games::registry::entries().iter().map(|e| e.id).collect();
    assert_eq!(ids, registry);

    let (status, body) = get(addr, "/api/v1/euler?position=start");
    assert_eq!((status, body["value"].as_str()), (200, Some("loss")));
    let (status, body) = get(addr, "/api/v1/euler?position=start&size=3x3");
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("euler has no option --size"),
        "{body}"
    );

    let (status, body) = get(addr, "/");
    assert_eq!(status, 200);
    assert!(body.as_str().unwrap().contains("<title>tbquery</title>"));
}

#[test]
fn dots_board_sizes_are_chosen_by_query() {
    let dir = tempfile::tempdir().unwrap();
    common::generate_dots(dir.path(), &["1x2"]);
    let addr = start(dir.path());
    let (status, body) = get(addr, "/api/v1/dots?size=1x2&position=1010/100");
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (body["variant"].as_str(), body["score"].as_i64()),
        (Some("1x2"), Some(2))
    );
    assert_eq!(body["moves"][0]["moves_again"], true);
    let (status, body) = get(addr, "/api/v1/dots?size=5x5&position=0");
    assert_eq!(status, 400, "{body}");
    let (status, body) = get(addr, "/api/v1/dots?size=2x2&position=000000000000");
    assert_eq!(status, 503, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("dots-2x2.tb"),
        "{body}"
    );
}

#[test]
fn missing_table_is_503_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let addr = start(dir.path());
    let (status, body) = get(addr, "/api/v1/euler?position=..../..../..../....");
    assert_eq!(status, 503);
    assert!(
        body["error"].as_str().unwrap().contains("euler.tb"),
        "{body}"
    );
    let (_, games) = get(addr, "/api/v1/games");
    assert_eq!(games["games"][0]["tables"][0]["present"], false);
}
