/* Target tasks made inside a parallel region, whose kernels are still queued on their
 * streams when the tasks' bodies end (the runtime's poller thread completes them, from
 * outside the team): the barrier ending a `single` that made them, and the end of a
 * parallel region where one thread made them, must both end (libgomp's team barrier
 * sleeps through such a completion: runtime/offload/openmp_waits.c), with the kernels
 * still running beside each other. Marks on stderr for tests/native/test_target_tasks.py;
 * stdout has the results, as gcc's binary prints them. */
#include <omp.h>
#include <stdio.h>

#define CHUNKS 4
#define M 4096

static double a[CHUNKS * M];

static void mark(const char *name) { fprintf(stderr, "mark: %s\n", name); }

int main(void)
{
    for (int i = 0; i < CHUNKS * M; i++) a[i] = i % 7;
#pragma omp target enter data map(to: a)
#pragma omp parallel
    {
#pragma omp single
        for (int c = 0; c < CHUNKS; c++) {
#pragma omp target nowait map(tofrom: a[c * M:M])
            for (int i = c * M; i < (c + 1) * M; i++) a[i] = a[i] * 2 + c;
        }
    }
    mark("single barrier passed");
#pragma omp parallel
    {
        if (omp_get_thread_num() == 0)
            for (int c = 0; c < CHUNKS; c++) {
#pragma omp target nowait map(tofrom: a[c * M:M])
                for (int i = c * M; i < (c + 1) * M; i++) a[i] += 1;
            }
    }
    mark("parallel end passed");
#pragma omp target exit data map(from: a)
    double sum = 0;
    for (int i = 0; i < CHUNKS * M; i++) sum += a[i];
    printf("sum %.1f\n", sum);
    return 0;
}
