/* A solver of Abapa (tournament Oware) endgames written apart from the
 * project's, to measure it against and to check it (scripts/bench-abapa-vs-c.sh).
 * Tier by tier from 0 seeds up, one sweep a tier:
 *
 * 1. every position's moves are played once: captures (and, under the thesis
 *    rule, moves that end the game) lead to smaller tiers, already solved, and
 *    give the position its best exit; quiet moves stay in the tier and are
 *    counted;
 * 2. the values come out of one retrograde sweep over every threshold t from n
 *    down to 1: "the mover can force at least t" and "the mover is held to -t
 *    at most" are a win/loss retrograde with move counters, and both sets only
 *    grow as t falls, so one counter per position (its quiet moves not yet known
 *    to reach a position worth t or more to its mover) serves every threshold,
 *    and each position is decided once, its parents found by un-sowing it.
 *    What no threshold decides is worth 0 (endless play).
 *
 *   cc -O2 -march=x86-64-v2 -o abapa-reference abapa-reference.c
 *   ./abapa-reference 16 [default | thesis]
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
#define MAX_SEEDS 24
#define NONE (-128)

static uint64_t choose[MAX_SEEDS + PITS + 1][PITS];
static int thesis; /* the game also ends when both sides hold fewer than 4 */

/* The rank of a spread of seeds among those with as many: bar j of the 11
 * between the pits sits at (seeds in pits 0..j) + j, and the rank is the
 * combinatorial number of the bar positions. */
static uint32_t rank_of(const uint8_t *pits) {
    uint64_t rank = 0;
    int before = 0;
    for (int j = 0; j < PITS - 1; j++) {
        before += pits[j];
        rank += choose[before + j][j + 1];
    }
    return (uint32_t)rank;
}

static int side(const uint8_t *pits, int from) {
    int seeds = 0;
    for (int i = from; i < from + 6; i++)
        seeds += pits[i];
    return seeds;
}

/* Whether sowing that ended in pit `last` of `board` (right after the sowing,
 * from the mover's side) captured: 2 or 3 seeds on the opponent's side, in a
 * run that does not take every seed the opponent has. */
static int captured(const uint8_t *board, int last) {
    int taken = 0;
    for (int run = last; run >= 6 && (board[run] == 2 || board[run] == 3); run--)
        taken += board[run];
    return taken > 0 && taken < side(board, 6);
}

/* Plays pit i: the board after the move seen by the next mover, and the net
 * seeds the move wins in *gain; returns whether the move is quiet (captures
 * nothing, the game goes on). A move that ends the game under the thesis rule
 * wins the difference of the two sides and leaves the empty board. */
static int play(const uint8_t *pits, int i, uint8_t *next, int *gain) {
    uint8_t board[PITS];
    memcpy(board, pits, PITS);
    int left = board[i], at = i;
    board[i] = 0;
    while (left > 0) {
        at = at == PITS - 1 ? 0 : at + 1;
        if (at != i) {
            board[at]++;
            left--;
        }
    }
    *gain = 0;
    if (captured(board, at))
        for (int run = at; run >= 6 && (board[run] == 2 || board[run] == 3); run--) {
            *gain += board[run];
            board[run] = 0;
        }
    if (thesis) {
        int mine = side(board, 0), theirs = side(board, 6);
        if (mine < 4 && theirs < 4) {
            memset(next, 0, PITS);
            *gain += mine - theirs;
            return 0;
        }
    }
    for (int j = 0; j < PITS; j++)
        next[j] = board[j < 6 ? j + 6 : j - 6];
    return *gain == 0;
}

static int8_t *values[MAX_SEEDS + 1];

/* A position with its rank. */
typedef struct {
    uint32_t rank;
    uint8_t pits[PITS];
} Entry;

/* One tier's work, by rank, and the positions with an exit. */
static int8_t *best;   /* best exit (capture or end of game), NONE without */
static uint8_t *count; /* quiet moves not yet known to reach a won position */
static Entry *exits;
static uint32_t exit_count;

/* Fills pits k.. with `left` seeds in every way; plays each spread's moves. */
static void spread(uint8_t *pits, int k, int left, int n) {
    if (k == PITS - 1) {
        pits[k] = (uint8_t)left;
        uint32_t r = rank_of(pits);
        int top = NONE, quiet = 0, legal = 0;
        int must_feed = side(pits, 6) == 0;
        for (int i = 0; i < 6; i++) {
            if (pits[i] == 0 || (must_feed && pits[i] + i < 6))
                continue;
            legal++;
            uint8_t next[PITS];
            int gain;
            if (play(pits, i, next, &gain)) {
                quiet++;
            } else {
                int value = gain - values[side(next, 0) + side(next, 6)][rank_of(next)];
                if (value > top)
                    top = value;
            }
        }
        if (side(pits, 0) == 0) /* no seeds: the opponent takes them all */
            top = -n;
        else if (legal == 0) /* cannot feed: the mover takes them all */
            top = n;
        best[r] = (int8_t)top;
        count[r] = (uint8_t)quiet;
        if (top != NONE) {
            exits[exit_count].rank = r;
            memcpy(exits[exit_count++].pits, pits, PITS);
        }
        return;
    }
    for (int here = 0; here <= left; here++) {
        pits[k] = (uint8_t)here;
        spread(pits, k + 1, left - here, n);
    }
}

/* The positions (n seeds, each seen by its mover) one quiet move before `pits`,
 * once per move; returns how many. */
static int unsow(const uint8_t *pits, int n, uint8_t parents[][PITS]) {
    uint8_t after[PITS]; /* the board right after the move, from the mover's side */
    for (int j = 0; j < PITS; j++)
        after[j] = pits[j < 6 ? j + 6 : j - 6];
    int opponent = side(after, 6);
    if (thesis && side(after, 0) < 4 && opponent < 4)
        return 0; /* such a move ends the game */
    int found = 0;
    for (int origin = 0; origin < 6; origin++) {
        if (after[origin] != 0)
            continue;
        uint8_t parent[PITS];
        memcpy(parent, after, PITS);
        int theirs = opponent, last = origin;
        for (int sown = 1; sown <= n; sown++) {
            /* One more seed taken back: the sowing ended a pit further on. */
            last = last == PITS - 1 ? 0 : last + 1;
            if (last == origin)
                last = last == PITS - 1 ? 0 : last + 1;
            if (parent[last] == 0)
                break;
            parent[last]--;
            theirs -= last >= 6;
            parent[origin] = (uint8_t)sown;
            /* An opponent with no seeds must have been fed. */
            if ((theirs > 0 || origin + sown >= 6) && !captured(after, last))
                memcpy(parents[found++], parent, PITS);
        }
    }
    return found;
}

static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

static uint64_t hash_of(uint8_t *pits, int k, int left, const int8_t *tier) {
    if (k == PITS - 1) {
        pits[k] = (uint8_t)left;
        uint64_t packed = 0;
        for (int j = 0; j < PITS; j++)
            packed |= (uint64_t)pits[j] << (5 * j);
        return mix(mix(packed) ^ (uint8_t)tier[rank_of(pits)]);
    }
    uint64_t hash = 0;
    for (int here = 0; here <= left; here++) {
        pits[k] = (uint8_t)here;
        hash += hash_of(pits, k + 1, left - here, tier);
    }
    return hash;
}

static void *take(uint64_t bytes) {
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

/* Solves the tier of n seeds into values[n]. */
static void solve(int n) {
    uint32_t size = (uint32_t)choose[n + PITS - 1][PITS - 1];
    int8_t *value = values[n] = take(size);
    best = take(size);
    count = take(size);
    exits = take((uint64_t)size * sizeof *exits);
    exit_count = 0;
    uint8_t pits[PITS];
    spread(pits, 0, n, n);

    /* The positions with an exit, grouped by its value v (group v + n): those
     * worth t or more by an exit are won at threshold t; those whose best exit
     * is worth -t or less are lost there once every quiet move reaches a
     * position won for its mover, and so are those without an exit. */
    Entry *by_exit = take((uint64_t)exit_count * sizeof *by_exit);
    uint32_t start[2 * MAX_SEEDS + 2] = {0};
    for (uint32_t i = 0; i < exit_count; i++)
        start[best[exits[i].rank] + n + 1]++;
    for (int g = 1; g <= 2 * n + 1; g++)
        start[g] += start[g - 1];
    uint32_t fill[2 * MAX_SEEDS + 2];
    memcpy(fill, start, sizeof start);
    for (uint32_t i = 0; i < exit_count; i++)
        by_exit[fill[best[exits[i].rank] + n]++] = exits[i];
    free(exits);

    memset(value, NONE, size);
    Entry *queue = take((uint64_t)size * sizeof *queue); /* each position enters once */
    uint32_t head = 0, tail = 0;
    uint8_t parents[6 * MAX_SEEDS][PITS];
    for (int t = n; t >= 1; t--) {
        for (uint32_t i = start[t + n]; i < start[t + n + 1]; i++)
            if (value[by_exit[i].rank] == NONE) {
                value[by_exit[i].rank] = (int8_t)t;
                queue[tail++] = by_exit[i];
            }
        for (uint32_t i = start[-t + n]; i < start[-t + n + 1]; i++)
            if (count[by_exit[i].rank] == 0 && value[by_exit[i].rank] == NONE) {
                value[by_exit[i].rank] = (int8_t)-t;
                queue[tail++] = by_exit[i];
            }
        while (head < tail) {
            const Entry *c = &queue[head++];
            int won_child = value[c->rank] > 0;
            int found = unsow(c->pits, n, parents);
            for (int i = 0; i < found; i++) {
                uint32_t p = rank_of(parents[i]);
                if (value[p] != NONE)
                    continue;
                if (won_child ? --count[p] == 0 && best[p] <= -t : 1) {
                    value[p] = (int8_t)(won_child ? -t : t);
                    queue[tail].rank = p;
                    memcpy(queue[tail++].pits, parents[i], PITS);
                }
            }
        }
    }
    for (uint32_t r = 0; r < size; r++)
        if (value[r] == NONE)
            value[r] = 0;
    free(queue);
    free(by_exit);
    free(count);
    free(best);
}

int main(int argc, char **argv) {
    int max_seeds = argc > 1 ? atoi(argv[1]) : 16;
    const char *rules = argc > 2 ? argv[2] : "default";
    thesis = strcmp(rules, "thesis") == 0;
    if (max_seeds < 0 || max_seeds > MAX_SEEDS || (!thesis && strcmp(rules, "default") != 0)) {
        fprintf(stderr, "usage: %s [MAX_SEEDS, 0 to %d] [default | thesis]\n", argv[0], MAX_SEEDS);
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
        solve(n);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        seconds += (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
        uint8_t pits[PITS];
        hash += hash_of(pits, 0, n, values[n]);
        positions += choose[n + PITS - 1][PITS - 1];
    }
    printf("%.3f %llu %016llx\n", seconds, (unsigned long long)positions, (unsigned long long)hash);
    return 0;
}
