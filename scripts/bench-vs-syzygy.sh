#!/usr/bin/env bash
# Side-by-side timing of chess generation: `tbgen chess` against Syzygy's
# generators (rtbgen for pawnless endings, rtbgenp for endings with pawns,
# syzygy1/tb) built from source in a temporary folder, on this machine, in one
# run, both with the same threads. Syzygy needs every table a capture or a
# promotion leads to first, so its whole chain is timed; tbgen makes the chain
# itself (the chain is the tables tbgen wrote, in Syzygy's names). tbgen's DTM
# tables alone (`--metric dtm`), and its DTM and DTZ tables in one run (`tbgen
# chess ENDING`, which makes both), are timed against Syzygy's WDL and DTZ
# tables, which its generators make in one run.
#
#   scripts/bench-vs-syzygy.sh [ENDING ...]     # default: KQvKR (chain KQvK KRvK KQvKR)
#   scripts/bench-vs-syzygy.sh KPvK KRPvKR      # pawn chains
#
# Then SAMPLES (default 2000) random legal positions of every table of each chain
# are compared between the two generators' tables, Syzygy's read with the `chess`
# package from PyPI (installed in a virtual environment under the temporary
# folder), and each table's bytes are listed beside Syzygy's: tbgen's DTM
# win/draw/loss against Syzygy's WDL (a WDL of +-1, a win or loss spoilt by the
# 50-move rule, counts as a win or loss, since distance-to-mate tables ignore that
# rule), and tbgen's DTZ tables' WDL50 and DTZ against Syzygy's, up to the rounding
# python-chess documents. Any difference fails.
#
# DTM_ALONE=0 skips the run of tbgen's DTM tables alone (for 6-piece chains,
# where it would add most of an hour); KEEP=1 keeps the temporary folder, with
# both generators' tables, and names it at the end. OURS=DIR compares the
# tables tbgen made before in DIR (DTM and DTZ, one ending named) instead of
# making them: only Syzygy's chain is timed, for six-piece endings whose two
# generators do not fit in memory side by side.
#
# THREADS (default 2) is the thread count of both. SYZYGY_SRC names the source
# archive (default ../shared/anchors/syzygy-tb-src.tar.gz beside this repository);
# where it is absent the script says so and exits 0. No Syzygy code enters this
# repository: it is unpacked and built under a temporary folder, removed at exit.
set -euo pipefail
cd "$(dirname "$0")/.."
THREADS=${THREADS:-2}
DTM_ALONE=${DTM_ALONE:-1}
KEEP=${KEEP:-0}
OURS=${OURS:-}
SAMPLES=${SAMPLES:-2000}
SRC=${SYZYGY_SRC:-../shared/anchors/syzygy-tb-src.tar.gz}
ENDINGS=("$@")
[ ${#ENDINGS[@]} -eq 0 ] && ENDINGS=(KQvKR)

if [ ! -f "$SRC" ]; then
    echo "Syzygy's generator source is not at $SRC (set SYZYGY_SRC): nothing compared." >&2
    exit 0
fi

WORK=$(mktemp -d)
forget() { [ "$KEEP" = 1 ] && echo "tables kept in $WORK" >&2 || rm -rf "$WORK"; }
trap forget EXIT

echo "building tbgen ..." >&2
cargo build --release --quiet -p generator -p query
TBGEN=$PWD/target/release/tbgen
TBQUERY=$PWD/target/release/tbquery

echo "building Syzygy's rtbgen and rtbgenp in $WORK ..." >&2
tar xzf "$SRC" -C "$WORK"
# Its temporary files are compressed with zstd where the library is installed;
# build without, as its README allows, so that only a C compiler is needed.
# One after the other: the two share object files, which a parallel make races on.
sed -i -e 's/^FLAGS += -DUSE_ZSTD/#&/' -e 's/^LDFLAGS += -lzstd/#&/' "$WORK/tb/src/Makefile"
for generator in rtbgen rtbgenp; do
    make -s -C "$WORK/tb/src" -j"$THREADS" "$generator" >"$WORK/build.log" 2>&1 \
        || { cat "$WORK/build.log" >&2; echo "ERROR: $generator did not build" >&2; exit 1; }
done
RTBGEN=$WORK/tb/src/rtbgen
RTBGENP=$WORK/tb/src/rtbgenp

# The tables of an ending's chain, one line each, Syzygy's name then tbgen's, in
# an order where every table comes after those its captures and promotions lead
# to: fewer pieces first, then fewer pawns. The chain is what tbgen wrote; KvK
# has no table.
chain() {
    ls "$1" | sed -n 's/^chess-\(.*\)\.tb$/\1/p' | grep -v '^dtz-\|^wdl-' | grep -vx KvK \
        | "$WORK/venv/bin/python" -c '
import sys, chess.syzygy
names = {chess.syzygy.normalize_tablename(n.strip()): n.strip() for n in sys.stdin}
for name in sorted(names, key=lambda n: (len(n), n.count("P"), n)):
    print(name, names[name])
'
}

# Wall seconds and peak resident megabytes of a command, as "SECONDS MB".
measure() {
    /usr/bin/time -f "%e %M" -o "$WORK/time" "$@" >"$WORK/out" 2>&1 \
        || { cat "$WORK/out" >&2; echo "ERROR: $* failed" >&2; exit 1; }
    awk '{ printf "%s %d\n", $1, $2 / 1024 }' "$WORK/time"
}

echo "installing python-chess and the lichess client berserk in a virtual environment ..." >&2
python3 -m venv "$WORK/venv" && "$WORK/venv/bin/pip" install --quiet chess 'berserk==0.14.0' \
    || { echo "ERROR: chess and berserk could not be installed from PyPI" >&2; exit 1; }

# `tbquery serve` on a folder, as a newcomer starts it, until the next or the end.
PORT=${PORT:-18931}
serve() {
    [ -n "${SERVER:-}" ] && kill "$SERVER" 2>/dev/null && wait "$SERVER" 2>/dev/null
    "$TBQUERY" --dir "$1" serve --addr "127.0.0.1:$PORT" >"$WORK/serve.log" 2>&1 &
    SERVER=$!
    for _ in $(seq 100); do
        curl -sf "http://127.0.0.1:$PORT/health" >/dev/null && return
        sleep 0.1
    done
    cat "$WORK/serve.log" >&2
    echo "ERROR: tbquery serve did not start" >&2
    exit 1
}
trap '[ -n "${SERVER:-}" ] && kill "$SERVER" 2>/dev/null; forget' EXIT

# Random legal positions of an ending (as FENs), with Syzygy's WDL50 (-2 to 2)
# and DTZ beside each.
syzygy_values() {
    "$WORK/venv/bin/python" - "$1" "$2" "$SAMPLES" <<'EOF'
import random, sys
import chess, chess.syzygy
ending, tables, samples = sys.argv[1], sys.argv[2], int(sys.argv[3])
white, black = ending.split("v")
pieces = [p for p in white] + [p.lower() for p in black]
rng = random.Random(1)
with chess.syzygy.open_tablebase(tables) as tb:
    found = 0
    while found < samples:
        board = chess.Board(None)
        for piece, square in zip(pieces, rng.sample(chess.SQUARES, len(pieces))):
            board.set_piece_at(square, chess.Piece.from_symbol(piece))
        board.turn = rng.random() < 0.5
        if not board.is_valid():
            continue
        found += 1
        print(board.fen(), tb.probe_wdl(board), tb.probe_dtz(board), sep="\t")
EOF
}

# Compares Syzygy's values of the sampled positions with tbgen's: the DTM
# tables' win/draw/loss with Syzygy's WDL (+-1, a win or loss the 50-move rule
# spoils, counts as a win or loss), then the DTZ tables' WDL50 (all five values)
# and DTZ. python-chess documents that a DTZ it reads may be one ply short where
# that cannot change the outcome (Syzygy stores some tables rounded), so a DTZ
# one ply longer than Syzygy's, the same way, is counted apart, not as a
# difference.
check() {
    local ending=$1 dtm=$2 dtz=$3 theirs=$4
    syzygy_values "$ending" "$theirs" >"$WORK/values"
    cut -f1 "$WORK/values" | "$TBQUERY" probe chess - --json --dir "$dtm" >"$WORK/dtm"
    cut -f1 "$WORK/values" | "$TBQUERY" probe chess --metric dtz - --json --dir "$dtz" \
        >"$WORK/dtz"
    "$WORK/venv/bin/python" - "$WORK/values" "$WORK/dtm" "$WORK/dtz" <<'EOF' || return 1
import json, sys
values, dtm, dtz = (open(path).read().splitlines() for path in sys.argv[1:])
differ = rounded = 0
def say(text):
    global differ
    differ += 1
    if differ <= 5:
        print("  " + text, file=sys.stderr)
for line, by_dtm, by_dtz in zip(values, dtm, dtz):
    fen, wdl, their_dtz = line.split("\t")
    wdl, their_dtz = int(wdl), int(their_dtz)
    outcome = "win" if wdl > 0 else "loss" if wdl < 0 else "draw"
    ours = json.loads(by_dtm).get("value")
    if ours != outcome:
        say(f"{fen}: Syzygy {outcome}, tbgen DTM {ours}")
        continue
    answer = json.loads(by_dtz)
    n = {"win": 1, "loss": -1}.get(answer.get("value"), 0) * (answer.get("distance") or 0)
    if answer.get("value") == "loss" and n == 0:
        n = -1  # checkmated: Syzygy's probes give -1
    our_wdl = 0 if n == 0 else (2 if n > 0 else -2) if abs(n) <= 100 else (1 if n > 0 else -1)
    if our_wdl != wdl:
        say(f"{fen}: Syzygy WDL50 {wdl}, tbgen {our_wdl} (DTZ {n})")
    elif n != their_dtz:
        if n * their_dtz > 0 and abs(n) == abs(their_dtz) + 1:
            rounded += 1
        else:
            say(f"{fen}: Syzygy DTZ {their_dtz}, tbgen {n}")
print(f"{len(values)} positions, {differ} differ ({rounded} DTZ one ply longer than Syzygy's rounded one)", end="")
sys.exit(1 if differ else 0)
EOF
    # The same positions through our lichess API, read by lichess's own client:
    # each category as Syzygy's WDL50 names it (the halfmove clock is 0).
    "$WORK/venv/bin/python" - "$WORK/values" "http://127.0.0.1:$PORT" <<'EOF'
import berserk, sys
values, url = open(sys.argv[1]).read().splitlines(), sys.argv[2]
client = berserk.Client(tablebase_url=url)
names = {2: "win", 1: "cursed-win", 0: "draw", -1: "blessed-loss", -2: "loss"}
differ = 0
for line in values:
    fen, wdl, _ = line.split("\t")
    category = client.tablebase.standard(fen)["category"]
    if category != names[int(wdl)]:
        differ += 1
        if differ <= 5:
            print(f"  {fen}: Syzygy {names[int(wdl)]}, /standard {category}", file=sys.stderr)
print(f"; /standard by berserk: {differ} categories differ")
sys.exit(1 if differ else 0)
EOF
}

# Bytes of a file.
bytes() { stat -c %s "$1"; }

CHECKS=()
printf '%-8s %-10s %8s %10s %7s %10s %7s %7s %7s\n' ending chain "DTM s" "DTM+DTZ s" MB \
    "Syzygy s" MB "DTM/S" "both/S"
for ending in "${ENDINGS[@]}"; do
    ours_dir=${OURS:-$WORK/ours-$ending}
    mkdir -p "$ours_dir" "$WORK/dtm-$ending" "$WORK/syzygy-$ending"
    # DTM alone (`--metric dtm`), then DTM and DTZ in one run, as `tbgen chess
    # ENDING` makes them (the DTZ solve reads DTM's draws before either table
    # leaves its exits): the tables compared and counted are the second run's.
    dtm=0 dtm_mb=0 both=0 both_mb=0
    [ "$DTM_ALONE" = 1 ] && [ -z "$OURS" ] && read -r dtm dtm_mb < <(measure "$TBGEN" chess \
        "$ending" --metric dtm --threads "$THREADS" --dir "$WORK/dtm-$ending")
    [ -z "$OURS" ] && read -r both both_mb < <(measure "$TBGEN" chess "$ending" \
        --threads "$THREADS" --dir "$ours_dir")
    rm -rf "$WORK/dtm-$ending"
    mapfile -t tables < <(chain "$ours_dir")
    serve "$ours_dir"
    syzygy=0
    syzygy_mb=0
    for pair in "${tables[@]}"; do
        table=${pair% *}
        generator=$RTBGEN
        [[ $table == *P* ]] && generator=$RTBGENP
        read -r seconds mb < <(
            cd "$WORK/syzygy-$ending" && export RTBWDIR=. RTBZDIR=. &&
                measure "$generator" -t "$THREADS" "$table"
        )
        syzygy=$(awk -v a="$syzygy" -v b="$seconds" 'BEGIN { print a + b }')
        [ "$mb" -gt "$syzygy_mb" ] && syzygy_mb=$mb
    done
    ratio() { awk -v a="$1" -v b="$syzygy" 'BEGIN { if (a > 0) printf "%.2f", a / b; else printf "-" }'; }
    printf '%-8s %-10s %8.2f %10.2f %7d %10.2f %7d %7s %7s\n' "$ending" "${#tables[@]} tables" \
        "$dtm" "$both" "$((dtm_mb > both_mb ? dtm_mb : both_mb))" "$syzygy" "$syzygy_mb" \
        "$(ratio "$dtm")" "$(ratio "$both")"
    # Every table of the chain against Syzygy's, with the bytes of each.
    for pair in "${tables[@]}"; do
        table=${pair% *} ours=${pair#* }
        said=$(check "$table" "$ours_dir" "$ours_dir" "$WORK/syzygy-$ending") \
            || { echo "$table against Syzygy: $said" >&2; exit 1; }
        CHECKS+=("$(printf '%-8s %12d %12d %12d %12d %12d  %s' "$table" \
            "$(bytes "$ours_dir/chess-$ours.tb")" \
            "$(bytes "$ours_dir/chess-dtz-$ours.tb")" \
            "$(bytes "$ours_dir/chess-wdl-$ours.tb")" \
            "$(bytes "$WORK/syzygy-$ending/$table.rtbw")" \
            "$(bytes "$WORK/syzygy-$ending/$table.rtbz")" "$said")")
    done
done
echo "DTM/S: tbgen's DTM tables' wall time over Syzygy's WDL and DTZ tables'; both/S:"
echo "tbgen's DTM and DTZ tables' over Syzygy's (below 1: tbgen is faster)"
echo
echo "Each table against Syzygy's (DTM win/draw/loss, WDL50, DTZ on $SAMPLES random positions,"
echo "and the category lichess's client berserk reads from tbquery serve's /standard),"
echo "with the bytes of tbgen's DTM, DTZ and WDL50 tables and Syzygy's WDL and DTZ tables:"
printf '%-8s %12s %12s %12s %12s %12s  %s\n' table "DTM bytes" "DTZ bytes" "WDL50 bytes" \
    "rtbw bytes" "rtbz bytes" \
    "sampled positions"
printf '%s\n' "${CHECKS[@]}"
