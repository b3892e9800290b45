#!/usr/bin/env bash
# Load test of `tbquery serve`, on loopback only and bounded in time: requests per
# second, median and 99th percentile latency and errors for Euler, chess KQvKR,
# chess KRBvKR (where its table is in the folder), lichess's /standard on the same
# two FENs (KRBvKR where its DTZ table is there too) and Abapa probes at 1, 16 and
# 64 connections, beside /health, which reads no table (the server's own
# ceiling); then the same Euler probe at 16 connections while a slow-client
# attack and a huge-URL attack run.
#
#   scripts/loadtest.sh [TABLES_DIR]      # default ./tablebases, made by `tbgen all` if missing
#
# DURATION (default 10s) is each measurement's length; ATTACKERS (default 5000) the
# slow connections held open (0: no attacks). PROBES (default "health euler chess
# krbvkr standard standard5 abapa") and CONNECTIONS (default "1 16 64") choose the measurements; BIN (default
# target/release, built first) the folder of the tbquery measured, so that two
# builds can be compared in alternating runs. wrk is installed with apt-get when
# missing.
set -euo pipefail
cd "$(dirname "$0")/.."
TABLES=${1:-tablebases}
DURATION=${DURATION:-10s}
ATTACKERS=${ATTACKERS:-5000}
PORT=${PORT:-18090}
HOST=127.0.0.1

if ! command -v wrk >/dev/null; then
    echo "installing wrk (Debian package) ..." >&2
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq wrk >/dev/null \
        || { echo "ERROR: wrk could not be installed; no load test was run" >&2; exit 1; }
fi
PROBES=${PROBES:-health euler chess krbvkr standard standard5 abapa}
CONNECTIONS=${CONNECTIONS:-1 16 64}
if [ -z "${BIN:-}" ]; then
    cargo build --release --quiet
    BIN=target/release
fi
if [ ! -f "$TABLES/chess-KQvKR.tb" ] || [ ! -f "$TABLES/chess-dtz-KQvKR.tb" ] \
    || [ ! -f "$TABLES/abapa-12seeds.tb" ]; then
    "$BIN/tbgen" all --dir "$TABLES" >/dev/null
fi

TBQUERY_LOG=warn "$BIN/tbquery" serve --dir "$TABLES" --addr "$HOST:$PORT" 2>/dev/null &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -s "http://$HOST:$PORT/api/v1/games" >/dev/null && break; sleep 0.1; done

EULER="/api/v1/euler?position=..../..../..../...."
CHESS="/api/v1/chess?position=8/8/8/3k4/8/8/1r6/KQ6%20w%20-%20-%200%201"
KRBVKR="/api/v1/chess?position=8/8/3k4/8/8/2r5/8/KRB5%20w%20-%20-%200%201"
STANDARD="/standard?fen=8/8/8/3k4/8/8/1r6/KQ6_w_-_-_0_1"
STANDARD5="/standard?fen=8/8/3k4/8/8/2r5/8/KRB5_w_-_-_0_1"
ABAPA="/api/v1/abapa?position=2%200%201%201%200%203%20/%200%201%201%200%201%202"

# One wrk run: "requests/s p50 p99 errors".
measure() {
    local connections=$1 path=$2 out
    local threads=$(( connections < 2 ? 1 : 2 ))
    out=$(wrk -t"$threads" -c"$connections" -d"$DURATION" --latency "http://$HOST:$PORT$path")
    local rate p50 p99 non2xx sockets
    rate=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
    p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
    p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
    non2xx=$(awk '/Non-2xx/ {print $NF}' <<<"$out")
    sockets=$(awk '/Socket errors/ {gsub(",", ""); print $4 + $6 + $8 + $10}' <<<"$out")
    echo "$rate ${p50:-?} ${p99:-?} $(( ${non2xx:-0} + ${sockets:-0} ))"
}

echo
echo "| probe | connections | requests/s | p50 | p99 | errors |"
echo "|---|---|---|---|---|---|"
for target in $PROBES; do
    case $target in
        health) path=/health; name="/health (no table)";;
        euler) path=$EULER; name="euler start (48 moves)";;
        chess) path=$CHESS; name="chess KQvKR FEN";;
        krbvkr)
            [ -f "$TABLES/chess-KRBvKR.tb" ] || { echo "(no chess-KRBvKR.tb in $TABLES: make it with tbgen chess KRBvKR)" >&2; continue; }
            path=$KRBVKR; name="chess KRBvKR FEN";;
        standard) path=$STANDARD; name="lichess /standard KQvKR FEN";;
        standard5)
            [ -f "$TABLES/chess-dtz-KRBvKR.tb" ] || { echo "(no chess-dtz-KRBvKR.tb in $TABLES: make it with tbgen chess KRBvKR --metric dtm,dtz)" >&2; continue; }
            path=$STANDARD5; name="lichess /standard KRBvKR FEN";;
        abapa) path=$ABAPA; name="abapa 12 seeds";;
    esac
    for connections in $CONNECTIONS; do
        read -r rate p50 p99 errors < <(measure "$connections" "$path")
        echo "| $name | $connections | $rate | $p50 | $p99 | $errors |"
    done
done

[ "$ATTACKERS" -gt 0 ] || exit 0

# The attacks: run for the measurement's length, then stop.
seconds=${DURATION%s}
slow_clients() {
    python3 - "$HOST" "$PORT" "$ATTACKERS" "$seconds" <<'PY'
import socket, sys, time
host, port, count, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
end = time.time() + seconds
held, opened = [], 0
while time.time() < end:
    while len(held) < count and time.time() < end:
        try:
            s = socket.create_connection((host, port), timeout=1)
            s.sendall(b"GET /api/v1/euler?position=")
            held.append(s); opened += 1
        except OSError:
            break
    alive = []
    for s in held:  # one more byte each, as slowly as a slow client does
        try:
            s.sendall(b".")
            alive.append(s)
        except OSError:
            s.close()
    held = alive
    time.sleep(1)
print(f"slow clients: {opened} connections opened, {len(held)} still open at the end", file=sys.stderr)
PY
}
huge_urls() {
    python3 - "$HOST" "$PORT" "$seconds" <<'PY'
import http.client, sys, threading, time
host, port, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
end = time.time() + seconds
path = "/api/v1/nim?position=" + "+".join(["15"] * 20000)
counts = {}
def attack():
    while time.time() < end:
        try:
            c = http.client.HTTPConnection(host, port, timeout=5)
            c.request("GET", path); r = c.getresponse(); r.read()
            counts[r.status] = counts.get(r.status, 0) + 1
            c.close()
        except OSError:
            counts["refused"] = counts.get("refused", 0) + 1
threads = [threading.Thread(target=attack) for _ in range(64)]
[t.start() for t in threads]; [t.join() for t in threads]
print(f"huge URLs (60 KB, 64 at once): answers by status {counts}", file=sys.stderr)
PY
}

slow_clients & ATTACK=$!
sleep 2
read -r rate p50 p99 errors < <(measure 16 "$EULER")
wait $ATTACK || true
echo "| euler start during $ATTACKERS slow clients | 16 | $rate | $p50 | $p99 | $errors |"
huge_urls & ATTACK=$!
sleep 1
read -r rate p50 p99 errors < <(measure 16 "$EULER")
wait $ATTACK || true
echo "| euler start during huge-URL requests | 16 | $rate | $p50 | $p99 | $errors |"
echo
echo "server memory at the end: $(grep VmRSS /proc/$SERVER/status | awk '{print $2/1024 " MB"}')"
