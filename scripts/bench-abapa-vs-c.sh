#!/usr/bin/env bash
# The Abapa solver against a plain solver in C written apart from it
# (scripts/abapa-reference.c: each tier's moves worked out once, then value
# iteration until nothing changes), side by side on this machine in one run,
# default rules, every tier from 0 seeds up to MAX_SEEDS. Both must agree on
# every position: the script fails unless their hashes of all values match.
#
#   scripts/bench-abapa-vs-c.sh [MAX_SEEDS]      # default: 16
#
# The reference is built with `cc -O2` for x86-64-v2, as the project is
# (.cargo/config.toml), and runs on one thread; the solver with THREADS
# (default 2) and with one. Solve times only: neither writes tables.
set -euo pipefail
cd "$(dirname "$0")/.."
MAX_SEEDS=${1:-16}
THREADS=${THREADS:-2}
CC=${CC:-cc}
command -v "$CC" >/dev/null || { echo "ERROR: no C compiler ($CC): nothing compared" >&2; exit 1; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"$CC" -O2 -march=x86-64-v2 -o "$WORK/reference" scripts/abapa-reference.c
cargo build --release --quiet -p generator --example abapa_solve
SOLVE=target/release/examples/abapa_solve

lscpu | grep -E "^(Model name|Thread|Core|L1d|L2|L3)" | sed 's/  */ /g'
read -r c positions hash_c < <("$WORK/reference" "$MAX_SEEDS")
read -r one _ hash_one < <(RAYON_NUM_THREADS=1 "$SOLVE" "$MAX_SEEDS")
read -r many _ hash_many < <(RAYON_NUM_THREADS=$THREADS "$SOLVE" "$MAX_SEEDS")
for hash in "$hash_one" "$hash_many"; do
    if [ "$hash" != "$hash_c" ]; then
        echo "ERROR: the solver and the reference disagree ($hash against $hash_c)" >&2
        exit 1
    fi
done
echo
echo "| tiers | positions | reference (C) | solver, 1 thread | solver, $THREADS threads | ratio, 1 | ratio, $THREADS |"
echo "|---|---|---|---|---|---|---|"
awk -v n="$MAX_SEEDS" -v p="$positions" -v c="$c" -v one="$one" -v many="$many" \
    'BEGIN { printf "| 0-%d | %d | %.2f s | %.2f s | %.2f s | %.3f | %.3f |\n", n, p, c, one, many, one / c, many / c }'
