/* num_threads, thread_limit and if(parallel: ...) on combined target constructs must
 * bound the threads that run the loop: a code that sizes per-thread scratch space by
 * num_threads (as many solvers do) indexes it with omp_get_thread_num(). */
#include <stdio.h>
#include <omp.h>

#define N 20000
#define SLOTS 8

static double data[N];

int main(void)
{
    int n = N, too_many = 0, distinct = 0;
    double scratch[SLOTS] = {0};
    int used[SLOTS] = {0};
    double total = 0.0;

    for (int i = 0; i < n; i++)
        data[i] = (i % 17) * 0.25;

    /* four threads per team at most: thread numbers index a 4-slot part of scratch */
#pragma omp target teams distribute parallel for num_threads(4) map(to: data) map(tofrom: too_many, scratch)
    for (int i = 0; i < n; i++) {
        int t = omp_get_thread_num();
        if (omp_get_num_threads() > 4 || t >= 4) {
#pragma omp atomic
            too_many++;
        } else {
#pragma omp atomic
            scratch[t] += data[i];
        }
    }
    for (int t = 0; t < SLOTS; t++)
        total += scratch[t];
    printf("num_threads(4): over the limit %d, scratch total %.2f\n", too_many, total);

    /* target parallel for num_threads(2): one team of at most two threads */
    too_many = 0;
#pragma omp target parallel for num_threads(2) map(tofrom: too_many, used)
    for (int i = 0; i < n; i++) {
        int t = omp_get_thread_num();
        if (omp_get_num_threads() > 2 || t >= 2) {
#pragma omp atomic
            too_many++;
        } else {
#pragma omp atomic
            used[t]++;
        }
    }
    distinct = 0;
    for (int t = 0; t < SLOTS; t++)
        distinct += used[t] > 0;
    printf("num_threads(2): over the limit %d, at most two thread numbers: %s, iterations %d\n",
           too_many, distinct <= 2 ? "yes" : "no", used[0] + used[1]);

    /* target parallel num_threads(3) */
    too_many = 0;
#pragma omp target parallel num_threads(3) map(tofrom: too_many)
    {
        if (omp_get_num_threads() > 3 || omp_get_thread_num() >= 3) {
#pragma omp atomic
            too_many++;
        }
    }
    printf("num_threads(3): over the limit %d\n", too_many);

    /* if(parallel: false): each team runs the loop with one thread */
    int serial = n < 0, not_one = 0;
#pragma omp target teams distribute parallel for if(parallel: serial) map(tofrom: not_one)
    for (int i = 0; i < n; i++) {
        if (omp_get_num_threads() != 1 || omp_get_thread_num() != 0) {
#pragma omp atomic
            not_one++;
        }
    }
    printf("if(parallel: false): threads other than one %d\n", not_one);

    /* thread_limit on a separate teams directive */
    too_many = 0;
#pragma omp target map(tofrom: too_many)
#pragma omp teams thread_limit(8)
#pragma omp distribute parallel for
    for (int i = 0; i < n; i++) {
        if (omp_get_num_threads() > 8) {
#pragma omp atomic
            too_many++;
        }
    }
    printf("thread_limit(8): over the limit %d\n", too_many);

    /* if(0) on a parallel for inside a target region */
    not_one = 0;
#pragma omp target map(tofrom: not_one)
#pragma omp parallel for if(0)
    for (int i = 0; i < 1000; i++) {
        if (omp_get_num_threads() != 1) {
#pragma omp atomic
            not_one++;
        }
    }
    printf("if(0): threads other than one %d\n", not_one);
    return 0;
}
