/* threadprivate globals, copyin, and per-thread accumulation merged deterministically. */
#include <stdio.h>
#include <omp.h>

static int tp_counter = 7;
static double tp_scale;
#pragma omp threadprivate(tp_counter, tp_scale)

int main(void)
{
    int ok = 1, i;
    long total = 0;

    tp_counter = 100;
    tp_scale = 1.5;
#pragma omp parallel copyin(tp_counter, tp_scale) reduction(&&: ok)
    {
        ok = ok && tp_counter == 100 && tp_scale == 1.5;
        tp_counter += omp_get_thread_num(); /* diverges per thread, no races */
    }
    printf("copyin ok: %d, master copy = %d\n", ok, tp_counter);

    /* per-thread partial sums in a threadprivate, merged with an atomic */
#pragma omp parallel copyin(tp_counter)
    {
        tp_counter = 0;
#pragma omp for
        for (i = 0; i < 1000; i++)
            tp_counter += i;
#pragma omp atomic
        total += tp_counter;
    }
    printf("total = %ld\n", total);

    /* copyprivate broadcast into a threadprivate variable */
    ok = 1;
#pragma omp parallel reduction(&&: ok)
    {
#pragma omp single copyprivate(tp_scale)
        tp_scale = 2.75;
        ok = ok && tp_scale == 2.75;
    }
    printf("copyprivate into threadprivate ok: %d, master tp_scale = %.2f\n", ok, tp_scale);
    return 0;
}
