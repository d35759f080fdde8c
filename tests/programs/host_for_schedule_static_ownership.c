/* schedule(static) and schedule(static, chunk): which thread runs which iteration is fixed
 * by the specification (chunks dealt round-robin in thread order), and a code may rely on it:
 * a thread that initialised a block reads it back in a later loop with the same schedule. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 1003

struct field {
    double value[N];
    int owner[N];       /* thread that wrote value[i] */
};

static struct field f;

static int check_chunked(const int *owner, int n, int chunk, int threads)
{
    for (int i = 0; i < n; i++)
        if (owner[i] != (i / chunk) % threads)
            return 0;
    return 1;
}

/* schedule(static): each thread one contiguous block, blocks in thread order */
static int check_blocked(const int *owner, int n)
{
    for (int i = 1; i < n; i++)
        if (owner[i] != owner[i - 1] && owner[i] != owner[i - 1] + 1)
            return 0;
    return owner[0] == 0;
}

int main(void)
{
    int chunks[] = {1, 4, 17, 1000};
    int threads = 0, reread_ok = 1;
    double sum = 0.0;

#pragma omp parallel
    {
#pragma omp single
        threads = omp_get_num_threads();
#pragma omp for schedule(static)
        for (int i = 0; i < N; i++) {
            f.value[i] = 0.5 * i;
            f.owner[i] = omp_get_thread_num();
        }
        /* same count, same schedule: every iteration on the thread that wrote it, no barrier needed */
#pragma omp for schedule(static) reduction(&&:reread_ok) reduction(+:sum) nowait
        for (int i = 0; i < N; i++) {
            reread_ok = reread_ok && f.owner[i] == omp_get_thread_num();
            sum += f.value[i];
        }
    }
    printf("static: blocked %d, reread by owner %d, sum %.1f\n", check_blocked(f.owner, N), reread_ok, sum);

    for (int k = 0; k < 4; k++) {
        int chunk = chunks[k];
#pragma omp parallel
        {
#pragma omp for schedule(static, chunk)
            for (int i = 0; i < N; i++)
                f.owner[i] = omp_get_thread_num();
        }
        printf("static,%d: round-robin %d\n", chunk, check_chunked(f.owner, N, chunk, threads));
    }

    /* a loop with fewer iterations than threads, and an empty one */
    int ran = 0;
#pragma omp parallel for schedule(static) reduction(+:ran)
    for (int i = 0; i < 3; i++)
        ran++;
#pragma omp parallel for schedule(static, 2) reduction(+:ran)
    for (int i = 10; i < 10; i++)
        ran += 100;
    printf("short loops ran %d iterations\n", ran);
    return 0;
}
