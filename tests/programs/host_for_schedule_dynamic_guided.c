/* schedule(dynamic[, chunk]) and schedule(guided[, chunk]) on a loop of uneven work:
 * every iteration runs exactly once, a dynamic chunk runs whole on one thread, guided
 * chunks never shrink below the chunk size (but the last), and the results match. */
#include <stdio.h>
#include <string.h>
#include <omp.h>

#define N 2000

struct tally {
    int runs[N];        /* times iteration i ran */
    int owner[N];       /* the thread that ran it */
    int start[N];       /* 1 where a chunk begins (seen by the thread taking it) */
};

static struct tally t;

static double uneven_work(int i)
{
    double x = 0.0;
    for (int k = 0; k < (i % 37) * 20; k++)
        x += 1.0 / (1.0 + k + i);
    return x;
}

static int once_each(void)
{
    for (int i = 0; i < N; i++)
        if (t.runs[i] != 1)
            return 0;
    return 1;
}

/* dynamic, chunk: iterations [k*chunk, (k+1)*chunk) ran on one thread */
static int whole_chunks(int chunk)
{
    for (int i = 0; i < N; i++)
        if (i % chunk != 0 && t.owner[i] != t.owner[i - 1])
            return 0;
    return 1;
}

static void reset(void)
{
    memset(&t, 0, sizeof t);
}

int main(void)
{
    double total_dyn = 0.0, total_guided = 0.0, total_ref = 0.0;
    int chunk = 7;

    for (int i = 0; i < N; i++)
        total_ref += uneven_work(i);

    reset();
#pragma omp parallel for schedule(dynamic) reduction(+:total_dyn)
    for (int i = 0; i < N; i++) {
#pragma omp atomic
        t.runs[i]++;
        total_dyn += uneven_work(i);
    }
    printf("dynamic: once each %d, matches %d\n", once_each(), total_dyn > total_ref - 1e-9 * total_ref
           && total_dyn < total_ref + 1e-9 * total_ref);

    reset();
#pragma omp parallel for schedule(dynamic, chunk)
    for (int i = 0; i < N; i++) {
        t.runs[i]++;
        t.owner[i] = omp_get_thread_num();
    }
    printf("dynamic,%d: once each %d, whole chunks %d\n", chunk, once_each(), whole_chunks(chunk));

    /* guided: each thread marks where the chunks it takes begin (a jump in i) */
    reset();
#pragma omp parallel reduction(+:total_guided)
    {
        int previous = -2;
#pragma omp for schedule(guided, 5) nowait
        for (int i = 0; i < N; i++) {
            t.runs[i]++;
            if (i != previous + 1)
                t.start[i] = 1;
            previous = i;
            total_guided += uneven_work(i);
        }
    }
    int shortest = N, length = 0;
    for (int i = 0; i <= N; i++) {
        if (i == N || (t.start[i] && i > 0)) {
            if (i < N && length < shortest)     /* the last chunk may be short */
                shortest = length;
            length = 0;
        }
        length++;
    }
    printf("guided,5: once each %d, no chunk below 5 but the last: %d, matches %d\n", once_each(),
           shortest >= 5, total_guided > total_ref - 1e-9 * total_ref && total_guided < total_ref + 1e-9 * total_ref);

    reset();
#pragma omp parallel for schedule(guided)
    for (int i = N - 1; i >= 0; i -= 1)
        t.runs[i]++;
    printf("guided, counting down: once each %d\n", once_each());
    return 0;
}
