/* The plain loop that the dots-and-boxes solver is measured against
 * (scripts/bench-dots-vs-c.sh): one signed byte per edge mask, every mask
 * from all edges drawn down to none, each trying its free edges one by one,
 * without a branch but the loop's (every edge borders two boxes, a missing one
 * standing for a box that never completes).
 * A move that completes boxes scores them and moves again; one that does not
 * passes the turn. Edges are numbered as the project numbers them: the
 * horizontal edges row by row from the top, then the vertical ones.
 *
 *   cc -O2 -march=x86-64-v2 -o dots-loop dots-loop.c && ./dots-loop 3 3
 *
 * Prints the seconds the loop took, the net score of the empty board and an
 * FNV-1a hash of every mask's score, to compare with the project's solver. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s ROWS COLS\n", argv[0]);
        return 2;
    }
    int rows = atoi(argv[1]), cols = atoi(argv[2]);
    int horizontal = (rows + 1) * cols;
    int edges = horizontal + rows * (cols + 1);
    if (rows < 1 || cols < 1 || edges > 31) {
        fprintf(stderr, "a board of 1 to 31 edges\n");
        return 2;
    }
    uint64_t masks = 1ull << edges;
    uint32_t full = (uint32_t)(masks - 1);
    /* For each edge, the other three edges of each box it borders; a box that
     * is not there is every edge, the free edge too, so it never completes. */
    uint32_t rest[32][2];
    int boxes[32] = {0};
    for (int e = 0; e < edges; e++)
        rest[e][0] = rest[e][1] = full;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            int top = r * cols + c, bottom = (r + 1) * cols + c;
            int left = horizontal + r * (cols + 1) + c, right = left + 1;
            uint32_t all = 1u << top | 1u << bottom | 1u << left | 1u << right;
            int sides[4] = {top, bottom, left, right};
            for (int s = 0; s < 4; s++) {
                int e = sides[s];
                rest[e][boxes[e]++] = all & ~(1u << e);
            }
        }
    int8_t *score = malloc(masks);
    if (!score) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (uint64_t m = masks; m-- > 0;) {
        uint32_t drawn = (uint32_t)m, free = ~drawn & full;
        int best = free ? -128 : 0;
        while (free) {
            int e = __builtin_ctz(free);
            free &= free - 1;
            int gain = ((drawn & rest[e][0]) == rest[e][0]) + ((drawn & rest[e][1]) == rest[e][1]);
            int child = score[drawn | 1u << e];
            int value = gain ? gain + child : -child;
            if (value > best)
                best = value;
        }
        score[m] = (int8_t)best;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    uint64_t hash = 0xcbf29ce484222325ull;
    for (uint64_t m = 0; m < masks; m++) {
        hash ^= (uint8_t)score[m];
        hash *= 0x100000001b3ull;
    }
    double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%.3f %d %016llx\n", seconds, score[0], (unsigned long long)hash);
    free(score);
    return 0;
}
