/* A plain solver of Abapa (tournament Oware) endgames, default rules, written
 * apart from the project's to measure it against and to check it
 * (scripts/bench-abapa-vs-c.sh). Tier by tier from 0 seeds up: every
 * position's moves are worked out once (captures lead to smaller tiers, already
 * solved; quiet moves stay in the tier), then value iteration: round k is the
 * game cut after k plies, every value from the previous round's, until nothing
 * changes; endless play is worth 0.
 *
 *   cc -O2 -march=x86-64-v2 -o abapa-reference abapa-reference.c && ./abapa-reference 16
 *
 * Positions are the 12 pit counts from the mover's side, the mover's pits 0-5
 * then the opponent's 6-11 in sowing order. Prints the seconds solving took,
 * the positions, and a hash of every position's value that does not depend on
 * how positions are numbered: the sum over positions of
 * mix(mix(pits packed 5 bits a pit, pit 0 lowest) ^ the value's byte). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PITS 12
#define MAX_SEEDS 48

static uint64_t choose[MAX_SEEDS + PITS + 1][PITS];

/* The rank of a spread of seeds among those with as many: bar j of the 11
 * between the pits sits at (seeds in pits 0..j) + j, and the rank is the
 * combinatorial number of the bar positions. */
static uint64_t rank_of(const uint8_t *pits) {
    uint64_t rank = 0;
    int before = 0;
    for (int j = 0; j < PITS - 1; j++) {
        before += pits[j];
        rank += choose[before + j][j + 1];
    }
    return rank;
}

static int side(const uint8_t *pits, int from) {
    int seeds = 0;
    for (int i = from; i < from + 6; i++)
        seeds += pits[i];
    return seeds;
}

/* Plays pit i: the board after the move seen by the next mover, and the seeds
 * captured. */
static int play(const uint8_t *pits, int i, uint8_t *next) {
    uint8_t board[PITS];
    memcpy(board, pits, PITS);
    int left = board[i], at = i;
    board[i] = 0;
    while (left > 0) {
        at = (at + 1) % PITS;
        if (at != i) {
            board[at]++;
            left--;
        }
    }
    int taken = 0;
    for (int run = at; run >= 6 && (board[run] == 2 || board[run] == 3); run--)
        taken += board[run];
    int gain = 0;
    if (taken > 0 && taken < side(board, 6)) /* a grand slam takes nothing */
        for (int run = at; run >= 6 && (board[run] == 2 || board[run] == 3); run--) {
            gain += board[run];
            board[run] = 0;
        }
    for (int j = 0; j < PITS; j++)
        next[j] = board[(j + 6) % PITS];
    return gain;
}

/* One position's moves: the best result of its captures (or its end score),
 * and the ranks its quiet moves lead to. */
typedef struct {
    int8_t best;
    uint8_t quiet;
    uint32_t child[6];
} Moves;

static int8_t *values[MAX_SEEDS + 1];
static Moves *moves;
static uint8_t *spreads; /* every position's pits, by rank */

static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

/* Fills pits k.. with `left` seeds in every way, working out each spread's moves. */
static void spread(uint8_t *pits, int k, int left, int n) {
    if (k == PITS - 1) {
        pits[k] = (uint8_t)left;
        uint64_t r = rank_of(pits);
        memcpy(spreads + r * PITS, pits, PITS);
        Moves *m = &moves[r];
        m->best = -128;
        m->quiet = 0;
        int must_feed = side(pits, 6) == 0, legal = 0;
        for (int i = 0; i < 6; i++) {
            if (pits[i] == 0 || (must_feed && pits[i] + i < 6))
                continue;
            legal++;
            uint8_t next[PITS];
            int gain = play(pits, i, next);
            if (gain == 0) {
                m->child[m->quiet++] = (uint32_t)rank_of(next);
            } else {
                int value = gain - values[n - gain][rank_of(next)];
                if (value > m->best)
                    m->best = (int8_t)value;
            }
        }
        if (side(pits, 0) == 0) /* no seeds: the opponent takes them all */
            m->best = (int8_t)-n;
        else if (legal == 0) /* cannot feed: the mover takes them all */
            m->best = (int8_t)n;
        return;
    }
    for (int here = 0; here <= left; here++) {
        pits[k] = (uint8_t)here;
        spread(pits, k + 1, left - here, n);
    }
}

int main(int argc, char **argv) {
    int max_seeds = argc > 1 ? atoi(argv[1]) : 16;
    if (max_seeds < 0 || max_seeds > 24) {
        fprintf(stderr, "usage: %s [MAX_SEEDS, 0 to 24]\n", argv[0]);
        return 2;
    }
    for (int a = 0; a <= MAX_SEEDS + PITS; a++) {
        choose[a][0] = 1;
        for (int b = 1; b < PITS; b++)
            choose[a][b] = a == 0 ? 0 : choose[a - 1][b - 1] + choose[a - 1][b];
    }
    double seconds = 0;
    uint64_t positions = 0, hash = 0;
    for (int n = 0; n <= max_seeds; n++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        uint64_t size = choose[n + PITS - 1][PITS - 1];
        moves = malloc(size * sizeof(Moves));
        spreads = malloc(size * PITS);
        int8_t *next = malloc(size);
        values[n] = calloc(size, 1);
        if (!moves || !spreads || !next || !values[n]) {
            fprintf(stderr, "out of memory\n");
            return 1;
        }
        uint8_t pits[PITS];
        spread(pits, 0, n, n);
        int8_t *now = values[n];
        for (int changed = 1; changed;) {
            changed = 0;
            for (uint64_t r = 0; r < size; r++) {
                const Moves *m = &moves[r];
                int best = m->best;
                for (int q = 0; q < m->quiet; q++) {
                    int value = -now[m->child[q]];
                    if (value > best)
                        best = value;
                }
                next[r] = (int8_t)best;
                changed |= best != now[r];
            }
            memcpy(now, next, size);
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        seconds += (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
        for (uint64_t r = 0; r < size; r++) {
            uint64_t packed = 0;
            for (int j = 0; j < PITS; j++)
                packed |= (uint64_t)spreads[r * PITS + j] << (5 * j);
            hash += mix(mix(packed) ^ (uint8_t)now[r]);
        }
        positions += size;
        free(moves);
        free(spreads);
        free(next);
    }
    printf("%.3f %llu %016llx\n", seconds, (unsigned long long)positions, (unsigned long long)hash);
    return 0;
}
