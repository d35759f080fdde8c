/* Teams with parallel regions the CPU device splits into work-item loops at their
 * barriers (cpu_teams.py); every line printed holds for any number of threads or teams. */
#include <stdio.h>
#include <omp.h>

#define N 1000

int main(void)
{
    static int a[N], b[N];
    static double x[N], y[N];
    static long per_block[20];
    int i, ok = 1, last = -1, s1 = 0, s2 = 0, ok4 = 1, nested_ok = 1, clause_ok = 1;
    long checksum = 0, crit = 0;
    double xs = 0.0;

    for (i = 0; i < N; i++) {
        a[i] = i;
        x[i] = (i % 17) * 1.5;
    }

    /* values kept across barriers; single and master */
#pragma omp target parallel map(tofrom: a, b) num_threads(6) map(tofrom: ok) reduction(&&: ok)
    {
        int id = omp_get_thread_num(), nt = omp_get_num_threads(), k;
        int mine = 0;
        for (k = id; k < N; k += nt) {
            b[k] = a[k] * 2;
            mine++;
        }
#pragma omp barrier
        for (k = id; k < N; k += nt)
            ok = ok && b[N - 1 - k] == 2 * (N - 1 - k);
#pragma omp barrier
        ok = ok && mine == (N - id + nt - 1) / nt && nt <= 6 && id < nt;
#pragma omp single
        b[0] = -1;
        ok = ok && b[0] == -1;
#pragma omp master
        b[1] = -2;
    }
    printf("phases: ok %d, b[0] %d, b[1] %d, b[2] %d\n", ok, b[0], b[1], b[2]);

    /* a loop of worksharing loops: barriers inside a team-level loop */
#pragma omp target parallel map(tofrom: x, y)
    {
        int step, j;
        for (step = 0; step < 10; step++) {
#pragma omp for
            for (j = 1; j < N - 1; j++)
                y[j] = (x[j - 1] + x[j + 1]) / 2;
#pragma omp for
            for (j = 1; j < N - 1; j++)
                x[j] = y[j];
        }
    }
    for (i = 0; i < N; i++)
        xs += x[i] * (i % 5);
    printf("relaxation: %.6f, x[500] %.6f\n", xs, x[500]);

    /* distribute with a chunked dist_schedule and lastprivate; a reduction per team */
#pragma omp target teams distribute dist_schedule(static, 3) lastprivate(last) num_teams(4) \
        map(tofrom: per_block)
    for (i = 0; i < 20; i++) {
        long s = 0;
        int j;
#pragma omp parallel for reduction(+: s)
        for (j = 0; j < 100; j++)
            s += (long)i * j;
        per_block[i] = s;
        last = i;
    }
    for (i = 0; i < 20; i++)
        checksum += per_block[i] * (i + 1);
    printf("distribute: checksum %ld, last %d\n", checksum, last);

    /* per-work-item private and firstprivate copies across a barrier */
    {
        int base = 100, tmp = 0;
#pragma omp target parallel firstprivate(base) private(tmp) map(tofrom: ok4) reduction(&&: ok4)
        {
            tmp = base + omp_get_thread_num();
            base += 1;
#pragma omp barrier
            ok4 = ok4 && tmp == base - 1 + omp_get_thread_num();
        }
        printf("privates: ok %d\n", ok4);
    }

    /* sections run once each */
#pragma omp target parallel map(tofrom: s1, s2)
    {
#pragma omp sections
        {
#pragma omp section
            s1 += 1;
#pragma omp section
            s2 += 2;
        }
    }
    printf("sections: %d %d\n", s1, s2);

    /* a parallel region nested in a work-item is inactive */
#pragma omp target parallel map(tofrom: nested_ok) reduction(&&: nested_ok)
    {
#pragma omp parallel
        {
            nested_ok = nested_ok && omp_get_num_threads() == 1;
        }
    }
    printf("nested: ok %d\n", nested_ok);

    /* distribute parallel for with a chunked dist_schedule and a critical section */
#pragma omp target teams distribute parallel for dist_schedule(static, 7) map(tofrom: crit)
    for (i = 0; i < N; i++) {
#pragma omp critical
        crit += i % 9;
    }
    printf("critical: %ld\n", crit);

    /* if(parallel: false) gives one thread; num_threads at most what was asked */
#pragma omp target teams num_teams(2) map(tofrom: clause_ok) reduction(&&: clause_ok)
    {
        int n = 0;
#pragma omp parallel if(0)
        {
#pragma omp atomic
            n++;
        }
        clause_ok = clause_ok && n == 1;
#pragma omp parallel num_threads(3)
        {
            clause_ok = clause_ok && omp_get_num_threads() <= 3;
        }
    }
    printf("clauses: ok %d\n", clause_ok);
    return 0;
}
