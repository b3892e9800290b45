#!/usr/bin/env bash
# The Abapa solver against a solver in C written apart from it
# (scripts/abapa-reference.c: each tier's moves played once and turned round
# into parent lists, then one retrograde sweep with move counters over every
# score threshold), side by side on this machine in one run, every tier from 0
# seeds up to MAX_SEEDS, under both rule sets. Both must agree on every
# position: the script fails unless their hashes of all values match, rule set
# by rule set.
#
#   scripts/bench-abapa-vs-c.sh [MAX_SEEDS]      # default: 16
#
# The reference is built with `cc -O2` for x86-64-v2, as the project is
# (.cargo/config.toml); it runs one thread a rule set, the two rule sets at
# once. The solver runs the same way (one thread a rule set, both at once), and
# then with THREADS (default 2) threads, one rule set after the other. The
# figure compared is the wall time of both rule sets: the slower of two at
# once, the sum of two in turn. Solve times only: neither writes tables.
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

# Runs a command for each rule set at once; prints "SECONDS POSITIONS HASH HASH":
# the slower solve, the positions of one rule set, and each rule set's hash.
both_at_once() {
    "$@" "$MAX_SEEDS" default >"$WORK/default" &
    local first=$!
    "$@" "$MAX_SEEDS" thesis >"$WORK/thesis"
    wait "$first"
    read -r a positions hash_a <"$WORK/default"
    read -r b _ hash_b <"$WORK/thesis"
    awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", (a > b ? a : b) }'
    echo " $positions $hash_a $hash_b"
}

# Fails unless every hash after the first two arguments is the reference's.
agree() {
    local rules=$1 reference=$2 hash
    shift 2
    for hash in "$@"; do
        [ "$hash" = "$reference" ] || {
            echo "ERROR: the solver and the reference disagree, $rules rules ($hash against $reference)" >&2
            exit 1
        }
    done
}

lscpu | grep -E "^(Model name|Thread|Core|L1d|L2|L3)" | sed 's/  */ /g'
read -r c positions default_c thesis_c < <(both_at_once "$WORK/reference")
read -r one _ default_one thesis_one < <(both_at_once env RAYON_NUM_THREADS=1 "$SOLVE")
read -r many_default _ default_many < <(RAYON_NUM_THREADS=$THREADS "$SOLVE" "$MAX_SEEDS" default)
read -r many_thesis _ thesis_many < <(RAYON_NUM_THREADS=$THREADS "$SOLVE" "$MAX_SEEDS" thesis)
agree default "$default_c" "$default_one" "$default_many"
agree thesis "$thesis_c" "$thesis_one" "$thesis_many"
echo
echo "| tiers, both rule sets | positions a rule set | reference (C), a thread a rule set | solver, the same | solver, $THREADS threads, in turn | ratio, the same | ratio, $THREADS threads |"
echo "|---|---|---|---|---|---|---|"
awk -v n="$MAX_SEEDS" -v p="$positions" -v c="$c" -v one="$one" -v d="$many_default" \
    -v t="$many_thesis" 'BEGIN { many = d + t; printf "| 0-%d | %d | %.2f s | %.2f s | %.2f s (%.2f + %.2f) | %.3f | %.3f |\n",
        n, p, c, one, many, d, t, one / c, many / c }'
