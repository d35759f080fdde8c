/* taskloop splits a loop into tasks: num_tasks(n) makes n tasks, grainsize(g) tasks of
 * g to 2g-1 iterations; each task counts itself through a firstprivate flag (one copy
 * per task), so the number of tasks and every iteration running once are both checked. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 1000

static int runs[N];
static double out[N];

static void reset(void)
{
    for (int i = 0; i < N; i++)
        runs[i] = 0;
}

static int once_each(int n)
{
    for (int i = 0; i < n; i++)
        if (runs[i] != 1)
            return 0;
    return 1;
}

/* the first iteration a task runs counts the task: `counted` is the task's own copy */
static void count_task(int *counted, int *tasks)
{
    if (!*counted) {
        *counted = 1;
#pragma omp atomic
        (*tasks)++;
    }
}

/* the number of tasks a taskloop over n iterations made, and whether each ran once */
static void report(const char *what, int tasks, int n)
{
    printf("%-14s %3d tasks, every iteration once: %d\n", what, tasks, once_each(n));
}

int main(void)
{
    int tasks;

#pragma omp parallel
#pragma omp single
    {
        int counted = 0;

        reset();
        tasks = 0;
#pragma omp taskloop num_tasks(8) firstprivate(counted) shared(tasks)
        for (int i = 0; i < N; i++) {
            count_task(&counted, &tasks);
            runs[i]++;
            out[i] = i * 0.5;
        }
        report("num_tasks(8)", tasks, N);

        reset();
        tasks = 0;
#pragma omp taskloop grainsize(100) firstprivate(counted) shared(tasks)
        for (int i = 0; i < N; i++) {
            count_task(&counted, &tasks);
            runs[i]++;
        }
        report("grainsize(100)", tasks, N);

        /* more tasks asked for than iterations: one iteration each */
        reset();
        tasks = 0;
#pragma omp taskloop num_tasks(50) firstprivate(counted) shared(tasks)
        for (int i = 0; i < 20; i++) {
            count_task(&counted, &tasks);
            runs[i]++;
        }
        report("num_tasks(50)", tasks, 20);

        /* a step other than one, counting down */
        reset();
        tasks = 0;
#pragma omp taskloop grainsize(7) firstprivate(counted) shared(tasks)
        for (int i = N - 1; i >= 0; i -= 3) {
            count_task(&counted, &tasks);
            runs[i]++;
        }
        int every_third = 1;
        for (int i = 0; i < N; i++)
            every_third = every_third && runs[i] == ((N - 1 - i) % 3 == 0);
        printf("grainsize(7), step -3: %d tasks, every third iteration once: %d\n", tasks, every_third);
    }
    double sum = 0.0;
    for (int i = 0; i < N; i++)
        sum += out[i];
    printf("out sum %.1f\n", sum);
    return 0;
}
