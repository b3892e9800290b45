#!/usr/bin/env bash
# The dots-and-boxes solver against a plain C loop (scripts/dots-loop.c: one byte
# per edge mask, every mask from all edges drawn down to none, its free edges one
# by one), side by side on this machine in one run. Both must agree on every
# mask: the script fails unless their hashes of all scores match.
#
#   scripts/bench-dots-vs-c.sh [SIZE ...]      # default: 3x3 3x4
#
# The C loop is built with `cc -O2` and `-O3`, both for x86-64-v2 as the project
# is (.cargo/config.toml), and the faster counts; it runs on one thread, the
# solver with THREADS (default 2) and with one. RUNS (default 3) solves of each,
# the fastest kept; 3x4 needs 2 GiB for each.
set -euo pipefail
cd "$(dirname "$0")/.."
THREADS=${THREADS:-2}
RUNS=${RUNS:-3}
SIZES=("$@")
[ ${#SIZES[@]} -eq 0 ] && SIZES=(3x3 3x4)
CC=${CC:-cc}
command -v "$CC" >/dev/null || { echo "ERROR: no C compiler ($CC): nothing compared" >&2; exit 1; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
for level in O2 O3; do
    "$CC" -"$level" -march=x86-64-v2 -o "$WORK/loop-$level" scripts/dots-loop.c
done
cargo build --release --quiet -p generator --example dots_solve
SOLVE=target/release/examples/dots_solve

# The fastest of RUNS runs of a C loop: "seconds score hash".
c_loop() {
    local best="" line
    for _ in $(seq "$RUNS"); do
        line=$("$@")
        if [ -z "$best" ] || awk -v a="${line%% *}" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then
            best=$line
        fi
    done
    echo "$best"
}

lscpu | grep -E "^(Model name|Thread|Core|L1d|L2|L3)" | sed 's/  */ /g'
echo
echo "| board | C -O2 | C -O3 | solver, 1 thread | solver, $THREADS threads | ratio, 1 | ratio, $THREADS | empty board |"
echo "|---|---|---|---|---|---|---|---|"
for size in "${SIZES[@]}"; do
    rows=${size%x*} cols=${size#*x}
    read -r o2 score hash_o2 < <(c_loop "$WORK/loop-O2" "$rows" "$cols")
    read -r o3 _ hash_o3 < <(c_loop "$WORK/loop-O3" "$rows" "$cols")
    read -r one _ hash_one < <(RAYON_NUM_THREADS=1 "$SOLVE" "$size" "$RUNS")
    read -r many _ hash_many < <(RAYON_NUM_THREADS=$THREADS "$SOLVE" "$size" "$RUNS")
    for hash in "$hash_o3" "$hash_one" "$hash_many"; do
        if [ "$hash" != "$hash_o2" ]; then
            echo "ERROR: $size: the solver and the C loop disagree ($hash against $hash_o2)" >&2
            exit 1
        fi
    done
    c=$(awk -v a="$o2" -v b="$o3" 'BEGIN { print (a < b ? a : b) }')
    awk -v size="$size" -v o2="$o2" -v o3="$o3" -v one="$one" -v many="$many" -v c="$c" -v score="$score" \
        'BEGIN { printf "| %s | %.3f s | %.3f s | %.3f s | %.3f s | %.2f | %.2f | %+d |\n", size, o2, o3, one, many, one / c, many / c, score }'
done
