/* expect: 15:9: error: reduction variable 'local_sum' is private in outer context */
#include <stdio.h>

#define N 1000

int main(void)
{
    double x[N], total = 0.0;
    for (int i = 0; i < N; i++)
        x[i] = i * 0.5;
#pragma omp parallel
    {
        double local_sum = 0.0;     /* each thread's own: a worksharing reduction of it races */
        /* meant: reduction(+: total), or local_sum summed by each thread, then an atomic */
#pragma omp for reduction(+: local_sum)
        for (int i = 0; i < N; i++)
            local_sum += x[i];
#pragma omp atomic
        total += local_sum;
    }
    printf("%.1f\n", total);
    return 0;
}
