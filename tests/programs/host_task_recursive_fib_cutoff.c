/* Recursive divide and conquer with deferred tasks, as task-parallel codes write it:
 * one thread (single) creates the root, each level spawns two tasks and waits for them
 * (taskwait), an if clause stops deferring below a cutoff and final makes the deepest
 * levels undeferred with omp_in_final() telling them so; mergeable on the small ones. */
#include <stdio.h>
#include <omp.h>

#define CUTOFF 14

static long finals_seen = 0;

static long fib_serial(int n)
{
    return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2);
}

static long fib(int n)
{
    long left, right;
    if (n < 2)
        return n;
    if (omp_in_final()) {
#pragma omp atomic
        finals_seen++;
        return fib_serial(n);
    }
#pragma omp task shared(left) if(n > CUTOFF) final(n <= CUTOFF - 4) mergeable
    left = fib(n - 1);
#pragma omp task shared(right) if(n > CUTOFF) final(n <= CUTOFF - 4) mergeable
    right = fib(n - 2);
#pragma omp taskwait
    return left + right;
}

/* the sum of a[lo, hi) by halves, each half a task */
static double tree_sum(const double *a, int lo, int hi)
{
    if (hi - lo <= 64) {
        double s = 0.0;
        for (int i = lo; i < hi; i++)
            s += a[i];
        return s;
    }
    double x, y;
    int mid = lo + (hi - lo) / 2;
#pragma omp task shared(x)
    x = tree_sum(a, lo, mid);
#pragma omp task shared(y)
    y = tree_sum(a, mid, hi);
#pragma omp taskwait
    return x + y;
}

int main(void)
{
    static double a[10000];
    long f = 0;
    double s = 0.0;

    for (int i = 0; i < 10000; i++)
        a[i] = 1.0 / (1 + i % 100);
#pragma omp parallel
    {
#pragma omp single
        {
            f = fib(27);
            s = tree_sum(a, 0, 10000);
        }
    }
    printf("fib(27) = %ld (serial %ld), final tasks reached: %d\n", f, fib_serial(27), finals_seen > 0);
    printf("tree sum %.9f\n", s);
    return 0;
}
