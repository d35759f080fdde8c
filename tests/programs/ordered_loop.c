/* ordered: the ordered blocks of a loop run in iteration order, whatever the schedule. */
#include <stdio.h>

#define N 200

int main(void)
{
    int seq[N], len = 0, i, in_order = 1;
    long weighted = 0;

#pragma omp parallel for ordered schedule(dynamic, 3)
    for (i = 0; i < N; i++) {
        int work = (i * 17) % 23;   /* unordered part */
#pragma omp ordered
        {
            seq[len++] = i;
            weighted += (long)work * len;
        }
    }
    for (i = 0; i < N; i++)
        in_order = in_order && seq[i] == i;
    printf("len = %d, in order = %d, weighted = %ld\n", len, in_order, weighted);

    /* ordered printing is deterministic */
#pragma omp parallel for ordered schedule(static, 1)
    for (i = 0; i < 8; i++) {
        int sq = i * i;
#pragma omp ordered
        printf("i = %d, sq = %d\n", i, sq);
    }

    /* running (prefix) sum built in order */
    {
        long prefix[50], running = 0;
        int ok = 1;
#pragma omp parallel for ordered schedule(guided)
        for (i = 0; i < 50; i++) {
            long v = (long)i * i;
#pragma omp ordered
            {
                running += v;
                prefix[i] = running;
            }
        }
        for (i = 1; i < 50; i++)
            ok = ok && prefix[i] == prefix[i - 1] + (long)i * i;
        printf("prefix ok = %d, prefix[49] = %ld\n", ok, prefix[49]);
    }
    /* decreasing loop with ordered */
    len = 0;
#pragma omp parallel for ordered
    for (i = N - 1; i >= 0; i -= 2) {
#pragma omp ordered
        seq[len++] = i;
    }
    printf("decreasing: len = %d, first = %d, second = %d, last = %d\n", len, seq[0], seq[1], seq[len - 1]);
    return 0;
}
