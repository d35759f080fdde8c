/* Deferred target regions met outside any parallel region, as most codes write them:
 * `target ... nowait` in sequential code, then a wait. Each must be finished exactly
 * where OpenMP says its task is complete: a taskwait, an orphaned barrier, the end of a
 * taskgroup, the implicit barrier of a worksharing loop and of a single. After each, the
 * host copies the arrays back with `target update from` and prints their checksums.
 * Then more regions than a runtime might keep in flight per thread (each on its own
 * slice) before one taskwait, a chain ordered by `depend` alone, and a time-step loop
 * whose regions are mapped anew each step. */
#include <stdio.h>

#define N 300000
#define SLICES 40
#define SLICE (N / SLICES)
#define WORK 40

static long a[N], b[N], c[N];
static int seen[8];

static long checksum(const long *x)
{
    long s = 0;
    int i;
    for (i = 0; i < N; i++)
        s = (s * 31 + x[i]) % 1000000007;
    return s;
}

static void print(const char *where)
{
    printf("%-22s %10ld %10ld %10ld\n", where, checksum(a), checksum(b), checksum(c));
}

int main(void)
{
    int i, r, w;
    for (i = 0; i < N; i++) {
        a[i] = i % 1000;
        b[i] = (i * 7) % 1003;
        c[i] = (i * 13) % 997;
    }
    #pragma omp target enter data map(to: a[0:N], b[0:N], c[0:N])

    /* three independent regions, one taskwait */
    #pragma omp target teams distribute parallel for nowait map(tofrom: a[0:N]) private(w)
    for (i = 0; i < N; i++) {
        long v = a[i];
        for (w = 0; w < WORK; w++)
            v = (v * 3 + 1) % 1000003;
        a[i] = v;
    }
    #pragma omp target teams distribute parallel for nowait map(tofrom: b[0:N]) private(w)
    for (i = 0; i < N; i++) {
        long v = b[i];
        for (w = 0; w < WORK; w++)
            v = (v * 5 + 2) % 1000033;
        b[i] = v;
    }
    #pragma omp target teams distribute parallel for nowait map(tofrom: c[0:N]) private(w)
    for (i = 0; i < N; i++) {
        long v = c[i];
        for (w = 0; w < WORK; w++)
            v = (v * 7 + 3) % 999983;
        c[i] = v;
    }
    #pragma omp taskwait
    #pragma omp target update from(a[0:N], b[0:N], c[0:N])
    print("taskwait");

    /* an orphaned barrier: the tasks of the (implicit) parallel region complete */
    #pragma omp target teams distribute parallel for nowait map(tofrom: a[0:N]) private(w)
    for (i = 0; i < N; i++) {
        long v = a[i];
        for (w = 0; w < WORK; w++)
            v = (v * 11 + 5) % 1000003;
        a[i] = v;
    }
    #pragma omp barrier
    #pragma omp target update from(a[0:N])
    print("barrier");

    /* the end of a taskgroup */
    #pragma omp taskgroup
    {
        #pragma omp target teams distribute parallel for nowait map(tofrom: b[0:N]) private(w)
        for (i = 0; i < N; i++) {
            long v = b[i];
            for (w = 0; w < WORK; w++)
                v = (v * 13 + 7) % 1000033;
            b[i] = v;
        }
        #pragma omp target teams distribute parallel for nowait map(tofrom: c[0:N]) private(w)
        for (i = 0; i < N; i++) {
            long v = c[i];
            for (w = 0; w < WORK; w++)
                v = (v * 17 + 11) % 999983;
            c[i] = v;
        }
    }
    #pragma omp target update from(b[0:N], c[0:N])
    print("taskgroup");

    /* a worksharing loop's implicit barrier */
    #pragma omp target teams distribute parallel for nowait map(tofrom: a[0:N]) private(w)
    for (i = 0; i < N; i++) {
        long v = a[i];
        for (w = 0; w < WORK; w++)
            v = (v * 19 + 13) % 1000003;
        a[i] = v;
    }
    #pragma omp for
    for (r = 0; r < 8; r++)
        seen[r] = r * r;
    #pragma omp target update from(a[0:N])
    print("loop's barrier");

    /* a single's implicit barrier */
    #pragma omp target teams distribute parallel for nowait map(tofrom: b[0:N]) private(w)
    for (i = 0; i < N; i++) {
        long v = b[i];
        for (w = 0; w < WORK; w++)
            v = (v * 23 + 17) % 1000033;
        b[i] = v;
    }
    #pragma omp single
    seen[0] += 100;
    #pragma omp target update from(b[0:N])
    print("single's barrier");

    /* one region per slice of each array, 3 * SLICES in flight, then one taskwait */
    for (r = 0; r < 3 * SLICES; r++) {
        long *array = r % 3 == 0 ? a : r % 3 == 1 ? b : c;
        long *slice = array + (r / 3) * SLICE;
        #pragma omp target teams distribute parallel for nowait map(tofrom: slice[0:SLICE]) private(w)
        for (i = 0; i < SLICE; i++) {
            long v = slice[i];
            for (w = 0; w < WORK; w++)
                v = (v * 29 + r) % 1000003;
            slice[i] = v;
        }
    }
    #pragma omp taskwait
    #pragma omp target update from(a[0:N], b[0:N], c[0:N])
    print("many in flight");

    /* ordered by depend alone: a's new values need b's, then c's need a's */
    #pragma omp target teams distribute parallel for nowait map(tofrom: b[0:N]) depend(out: b[0:N])
    for (i = 0; i < N; i++)
        b[i] = (b[i] * 31 + 1) % 1000033;
    #pragma omp target teams distribute parallel for nowait map(tofrom: a[0:N]) map(to: b[0:N]) \
        depend(in: b[0:N]) depend(out: a[0:N])
    for (i = 0; i < N; i++)
        a[i] = (a[i] + b[N - 1 - i]) % 1000003;
    #pragma omp target teams distribute parallel for nowait map(tofrom: c[0:N]) map(to: a[0:N]) \
        depend(in: a[0:N])
    for (i = 0; i < N; i++)
        c[i] = (c[i] * 3 + a[(i * 7) % N]) % 999983;
    #pragma omp taskwait
    #pragma omp target update from(a[0:N], b[0:N], c[0:N])
    print("depend chain");

    #pragma omp target exit data map(from: a[0:N], b[0:N], c[0:N])

    /* a time-step loop: each step maps its own data, runs two regions, waits */
    for (r = 0; r < 5; r++) {
        #pragma omp target data map(tofrom: a[0:N], b[0:N])
        {
            #pragma omp target teams distribute parallel for nowait map(tofrom: a[0:N]) private(w)
            for (i = 0; i < N; i++) {
                long v = a[i];
                for (w = 0; w < 8; w++)
                    v = (v * 37 + r) % 1000003;
                a[i] = v;
            }
            #pragma omp target teams distribute parallel for nowait map(tofrom: b[0:N]) private(w)
            for (i = 0; i < N; i++) {
                long v = b[i];
                for (w = 0; w < 8; w++)
                    v = (v * 41 + r) % 1000033;
                b[i] = v;
            }
            #pragma omp taskwait
        }
    }
    print("time steps");
    printf("seen %d %d\n", seen[0], seen[7]);
    return 0;
}
