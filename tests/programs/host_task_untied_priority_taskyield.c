// env: OMP_MAX_TASK_PRIORITY=4
/* Task scheduling hints that must not change results: untied tasks that yield between
 * steps (taskyield lets the thread run other tasks meanwhile), priorities on a work list
 * of uneven jobs (a hint only: every job still runs exactly once; OMP_MAX_TASK_PRIORITY
 * lets the runtime honour them, omp_get_max_task_priority reports it). */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define JOBS 64
#define STEPS 5

struct job {
    int id;
    int size;
    double result;
    int runs;
};

static double crunch(int size, int step)
{
    double x = 0.0;
    for (int k = 1; k <= size; k++)
        x += 1.0 / ((double)k * k + step);
    return x;
}

int main(void)
{
    struct job *jobs = calloc(JOBS, sizeof *jobs);
    int yields = 0;

    for (int j = 0; j < JOBS; j++) {
        jobs[j].id = j;
        jobs[j].size = 100 + (j * 37) % 400;
    }
#pragma omp parallel
#pragma omp single
    {
        for (int j = 0; j < JOBS; j++) {
            struct job *job = &jobs[j];
#pragma omp task untied firstprivate(job) shared(yields)
            {
                for (int s = 0; s < STEPS; s++) {
                    job->result += crunch(job->size, s);
#pragma omp taskyield
#pragma omp atomic
                    yields++;
                }
                job->runs++;
            }
        }
#pragma omp taskwait

        /* the bigger the job the higher its priority */
        for (int j = 0; j < JOBS; j++) {
#pragma omp task priority(jobs[j].size / 100) firstprivate(j)
            {
                jobs[j].result = jobs[j].result * 0.5 + crunch(jobs[j].size / 2, 1);
                jobs[j].runs++;
            }
        }
    }
    int twice = 1;
    double total = 0.0;
    for (int j = 0; j < JOBS; j++) {
        twice = twice && jobs[j].runs == 2;
        total += jobs[j].result;
    }
    printf("every job ran twice: %d, yields %d, total %.9f\n", twice, yields, total);
    printf("max task priority %d\n", omp_get_max_task_priority());
    free(jobs);
    return 0;
}
