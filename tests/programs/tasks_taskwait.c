/* Explicit tasks: recursive fib with taskwait, producer/consumer through a single, taskgroup. */
#include <stdio.h>

static long fib_task(int n)
{
    long x, y;
    if (n < 12) {
        long a = 0, b = 1, t;
        int k;
        for (k = 0; k < n; k++) {
            t = a + b;
            a = b;
            b = t;
        }
        return a;
    }
#pragma omp task shared(x) firstprivate(n)
    x = fib_task(n - 1);
#pragma omp task shared(y) firstprivate(n)
    y = fib_task(n - 2);
#pragma omp taskwait
    return x + y;
}

int main(void)
{
    long f = 0;
    int out[100], i;
    long s = 0;
    int done = 0;

#pragma omp parallel
    {
#pragma omp single
        f = fib_task(30);
    }
    printf("fib(30) = %ld\n", f);

    /* one thread creates a task per element; firstprivate captures the index */
#pragma omp parallel
    {
#pragma omp single
        {
            int k;
            for (k = 0; k < 100; k++) {
#pragma omp task firstprivate(k)
                out[k] = k * k;
            }
        }
    }
    for (i = 0; i < 100; i++)
        s += out[i];
    printf("task squares sum = %ld\n", s);

    /* taskgroup waits for descendants; atomics count completed tasks */
#pragma omp parallel
    {
#pragma omp single
        {
#pragma omp taskgroup
            {
                int k;
                for (k = 0; k < 20; k++) {
#pragma omp task
                    {
#pragma omp task
                        {
#pragma omp atomic
                            done++;
                        }
#pragma omp atomic
                        done++;
                    }
                }
            }
            printf("after taskgroup: done = %d\n", done);
        }
    }
    /* if(0) task runs immediately (undeferred) */
    {
        int v = 0;
#pragma omp parallel num_threads(2)
        {
#pragma omp single
            {
#pragma omp task if(0) shared(v)
                v = 5;
                printf("undeferred task result = %d\n", v);
            }
        }
    }
    return 0;
}
