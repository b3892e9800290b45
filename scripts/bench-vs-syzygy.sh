#!/usr/bin/env bash
# Side-by-side timing of chess generation: `tbgen chess` against Syzygy's
# generators (rtbgen for pawnless endings, rtbgenp for endings with pawns,
# syzygy1/tb) built from source in a temporary folder, on this machine, in one
# run, both with the same threads. Syzygy needs every table a capture or a
# promotion leads to first, so its whole chain is timed; tbgen makes the chain
# itself (the chain is the tables tbgen wrote, in Syzygy's names).
#
#   scripts/bench-vs-syzygy.sh [ENDING ...]     # default: KQvKR (chain KQvK KRvK KQvKR)
#   scripts/bench-vs-syzygy.sh KPvK KRPvKR      # pawn chains
#
# Then the win/draw/loss of SAMPLES (default 2000) random legal positions of each
# ending is compared between the two tables: Syzygy's read with the `chess` package
# from PyPI (installed in a virtual environment under the temporary folder). A
# Syzygy WDL of +-1 (a win or loss spoilt by the 50-move rule) counts as a win or
# loss, since distance-to-mate tables ignore that rule. Any difference fails.
#
# THREADS (default 2) is the thread count of both. SYZYGY_SRC names the source
# archive (default ../shared/anchors/syzygy-tb-src.tar.gz beside this repository);
# where it is absent the script says so and exits 0. No Syzygy code enters this
# repository: it is unpacked and built under a temporary folder, removed at exit.
set -euo pipefail
cd "$(dirname "$0")/.."
THREADS=${THREADS:-2}
SAMPLES=${SAMPLES:-2000}
SRC=${SYZYGY_SRC:-../shared/anchors/syzygy-tb-src.tar.gz}
ENDINGS=("$@")
[ ${#ENDINGS[@]} -eq 0 ] && ENDINGS=(KQvKR)

if [ ! -f "$SRC" ]; then
    echo "Syzygy's generator source is not at $SRC (set SYZYGY_SRC): nothing compared." >&2
    exit 0
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

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

# The tables of an ending's chain in Syzygy's names, in an order where every
# table comes after those its captures and promotions lead to: fewer pieces
# first, then fewer pawns. The chain is what tbgen wrote; KvK has no table.
chain() {
    ls "$1" | sed -n 's/^chess-\(.*\)\.tb$/\1/p' | grep -vx KvK \
        | "$WORK/venv/bin/python" -c '
import sys, chess.syzygy
names = {chess.syzygy.normalize_tablename(n.strip()) for n in sys.stdin}
for name in sorted(names, key=lambda n: (len(n), n.count("P"), n)):
    print(name)
'
}

# Wall seconds and peak resident megabytes of a command, as "SECONDS MB".
measure() {
    /usr/bin/time -f "%e %M" -o "$WORK/time" "$@" >"$WORK/out" 2>&1 \
        || { cat "$WORK/out" >&2; echo "ERROR: $* failed" >&2; exit 1; }
    awk '{ printf "%s %d\n", $1, $2 / 1024 }' "$WORK/time"
}

echo "installing python-chess in a virtual environment ..." >&2
python3 -m venv "$WORK/venv" && "$WORK/venv/bin/pip" install --quiet chess \
    || { echo "ERROR: the chess package could not be installed from PyPI" >&2; exit 1; }

# Random legal positions of an ending (as FENs), with Syzygy's WDL beside each.
syzygy_wdl() {
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
        wdl = tb.probe_wdl(board)
        print(board.fen(), "win" if wdl > 0 else "loss" if wdl < 0 else "draw", sep="\t")
EOF
}

# Compares Syzygy's WDL with tbgen's value on the sampled positions.
check_wdl() {
    local ending=$1 ours=$2 theirs=$3
    syzygy_wdl "$ending" "$theirs" >"$WORK/wdl"
    cut -f1 "$WORK/wdl" | "$TBQUERY" probe chess - --json --dir "$ours" \
        | "$WORK/venv/bin/python" -c '
import json, sys
said = [line.split("\t") for line in open(sys.argv[1]).read().splitlines()]
differ = 0
for (fen, wdl), answer in zip(said, sys.stdin):
    value = json.loads(answer).get("value")
    if value != wdl:
        differ += 1
        if differ <= 5:
            print(f"  {fen}: Syzygy {wdl}, tbgen {value}", file=sys.stderr)
print(f"{len(said)} positions, {differ} differ")
sys.exit(1 if differ else 0)
' "$WORK/wdl"
}

WDL=()
printf '%-10s %-44s %10s %8s %10s %8s %7s\n' ending "chain" "tbgen s" "MB" "rtbgen s" "MB" ratio
for ending in "${ENDINGS[@]}"; do
    mkdir -p "$WORK/ours-$ending" "$WORK/syzygy-$ending"
    read -r ours ours_mb < <(measure "$TBGEN" chess "$ending" --threads "$THREADS" --dir "$WORK/ours-$ending")
    mapfile -t tables < <(chain "$WORK/ours-$ending")
    syzygy=0
    syzygy_mb=0
    for table in "${tables[@]}"; do
        generator=$RTBGEN
        [[ $table == *P* ]] && generator=$RTBGENP
        read -r seconds mb < <(
            cd "$WORK/syzygy-$ending" && export RTBWDIR=. RTBZDIR=. &&
                measure "$generator" -t "$THREADS" "$table"
        )
        syzygy=$(awk -v a="$syzygy" -v b="$seconds" 'BEGIN { print a + b }')
        [ "$mb" -gt "$syzygy_mb" ] && syzygy_mb=$mb
    done
    ratio=$(awk -v a="$ours" -v b="$syzygy" 'BEGIN { printf "%.2f", a / b }')
    printf '%-10s %-44s %10.2f %8d %10.2f %8d %7s\n' "$ending" "${#tables[@]} tables" \
        "$ours" "$ours_mb" "$syzygy" "$syzygy_mb" "$ratio"
    wdl=$(check_wdl "$ending" "$WORK/ours-$ending" "$WORK/syzygy-$ending") \
        || { echo "$ending: win/draw/loss against Syzygy: $wdl" >&2; exit 1; }
    WDL+=("$ending win/draw/loss against Syzygy: $wdl")
done
echo "ratio: tbgen's wall time over rtbgen's for the same chain (below 1: tbgen is faster)"
printf '%s\n' "${WDL[@]}"
