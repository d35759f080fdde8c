/* Target regions launched from host threads at once: each thread of a host team offloads
 * work on its own private buffer while all of them map the same read-only table; then
 * target nowait tasks ordered by depend with host tasks (a host task fills a buffer,
 * the device scales it, a host task checks it). */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 512
#define WORKERS 4

struct job {
    double out[N];
    int id;
};

static double table[N];

static void fill_table(void)
{
    for (int i = 0; i < N; i++)
        table[i] = (i % 10) * 0.5;
}

static double run_job(struct job *j)
{
    double *out = j->out;
    int id = j->id;
#pragma omp target map(to: table[0:N]) map(from: out[0:N]) firstprivate(id)
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        out[i] = table[i] * (id + 1) + i;
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += out[i];
    return s;
}

int main(void)
{
    struct job *jobs = calloc(WORKERS, sizeof *jobs);
    double sums[WORKERS];

    fill_table();
#pragma omp parallel for num_threads(WORKERS) schedule(static, 1)
    for (int w = 0; w < WORKERS; w++) {
        jobs[w].id = w;
        sums[w] = run_job(&jobs[w]);
    }
    for (int w = 0; w < WORKERS; w++)
        printf("worker %d: sum %.1f\n", w, sums[w]);

    double buffer[N];
    double checked = 0.0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task depend(out: buffer)
        for (int i = 0; i < N; i++)
            buffer[i] = i * 0.25;
#pragma omp target nowait depend(inout: buffer) map(tofrom: buffer)
        for (int i = 0; i < N; i++)
            buffer[i] = buffer[i] * 4.0 + 1.0;
#pragma omp task depend(in: buffer) shared(checked)
        {
            for (int i = 0; i < N; i++)
                checked += buffer[i] == i + 1.0;
        }
#pragma omp taskwait
    }
    printf("host task, device, host task in order: %d of %d elements right\n", (int)checked, N);
    free(jobs);
    return 0;
}
