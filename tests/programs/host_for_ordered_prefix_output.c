/* ordered: a loop whose iterations compute in parallel but print and accumulate a running
 * prefix in iteration order (the way a code writes records of a file in order), with
 * dynamic and static,1 schedules and an ordered block in a helper function. */
#include <stdio.h>
#include <omp.h>

#define N 40

struct records {
    double x[N];
    double prefix[N];
};

static double running = 0.0;

static double cost(int i)
{
    double v = 0.0;
    for (int k = 1; k <= 200 + (i * 7919) % 300; k++)
        v += 1.0 / k;
    return v;
}

/* called from inside the loop: the ordered region binds to the caller's loop */
static void emit(struct records *r, int i)
{
#pragma omp ordered
    {
        running += r->x[i];
        r->prefix[i] = running;
        if (i % 8 == 0)
            printf("record %2d: x %.6f prefix %.6f\n", i, r->x[i], r->prefix[i]);
    }
}

int main(void)
{
    static struct records r;
    int order[N], next = 0;

#pragma omp parallel for ordered schedule(dynamic)
    for (int i = 0; i < N; i++) {
        r.x[i] = cost(i);
        emit(&r, i);
    }

    /* which iteration reached the ordered block k-th */
#pragma omp parallel for ordered schedule(static, 1)
    for (int i = N - 1; i >= 0; i--) {
        double local = cost(i) * 2.0;
#pragma omp ordered
        {
            order[next++] = i;
            r.x[i] = local;
        }
    }
    int descending = 1;
    for (int k = 0; k < N; k++)
        descending = descending && order[k] == N - 1 - k;
    printf("static,1 counting down: ordered in iteration order %d, x[5] %.6f\n", descending, r.x[5]);

    /* ordered with a chunked schedule inside an enclosing parallel region */
    double checksum = 0.0;
#pragma omp parallel
    {
#pragma omp for ordered schedule(dynamic, 3)
        for (int i = 0; i < N; i++) {
#pragma omp ordered
            checksum = checksum * 0.5 + r.prefix[i];
        }
    }
    printf("ordered checksum %.9f\n", checksum);
    return 0;
}
