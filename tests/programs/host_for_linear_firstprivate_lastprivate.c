/* Loop-carried data-sharing on a worksharing loop inside a parallel region, where the
 * originals are shared by the team: linear (a packed output cursor, an integer and a
 * pointer), firstprivate + lastprivate of one variable (each thread starts from the
 * original, the last iteration's value is copied out), sections likewise. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 600

struct packet {
    int key[2 * N];
    double weight[2 * N];
};

static double seed_weight(int i)
{
    return 1.0 + (i % 13) * 0.25;
}

int main(void)
{
    struct packet *p = calloc(1, sizeof *p);
    int cursor = 10, last_seen = -1, pairs_ok = 1, on_track = 1;
    double *out = p->weight + 4;
    double scale = 2.0;
    int tag = 100, first = 0, second = 0;

#pragma omp parallel
    {
        /* each iteration writes two keys at the cursor, then advances it by its step */
#pragma omp for linear(cursor:2) schedule(static, 5) reduction(&&:on_track)
        for (int i = 0; i < N - 10; i++) {
            on_track = on_track && cursor == 10 + 2 * i;
            p->key[cursor] = i;
            p->key[cursor + 1] = -i;
            cursor += 2;
        }

        /* a pointer stepping through the array, one element per iteration */
#pragma omp for linear(out:1) schedule(dynamic, 3) reduction(&&:on_track)
        for (int i = 0; i < N; i++) {
            on_track = on_track && out == p->weight + 4 + i;
            *out = seed_weight(i) * scale;
            out++;
        }

        /* firstprivate and lastprivate: the copy starts at the original's value in every thread */
#pragma omp for firstprivate(last_seen) lastprivate(last_seen) schedule(static, 7)
        for (int i = 0; i < N; i++) {
            if (last_seen < -1 || last_seen >= N)
                pairs_ok = 0;       /* started from a value another thread copied out */
            last_seen = i;
        }

#pragma omp sections firstprivate(tag) lastprivate(tag)
        {
#pragma omp section
            first = tag + 1;
#pragma omp section
            second = tag + 2;
#pragma omp section
            tag += 3;       /* the last section: its value is copied out */
        }
    }
    for (int i = 0; i < N - 10; i++)
        pairs_ok = pairs_ok && p->key[10 + 2 * i] == i && p->key[11 + 2 * i] == -i;
    double wsum = 0.0;
    for (int i = 0; i < 2 * N; i++)
        wsum += p->weight[i];
    printf("cursor %d, keys in pairs %d, linear values on track %d\n", cursor, pairs_ok, on_track);
    printf("pointer advanced %ld elements, weight sum %.2f\n", (long)(out - p->weight), wsum);
    printf("last_seen %d, tag %d (sections saw %d, %d)\n", last_seen, tag, first, second);
    free(p);
    return 0;
}
