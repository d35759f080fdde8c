/* expect: 9:57: error: 'partial' in 'allocate' clause is not privatised on '#pragma omp parallel for' */
#include <omp.h>

int main(void)
{
    double x[100], partial[4] = {0};
    for (int i = 0; i < 100; i++)
        x[i] = i;
#pragma omp parallel for allocate(omp_thread_mem_alloc: partial)
    for (int i = 0; i < 100; i++)
        partial[i % 4] += x[i];
    return partial[0] > 0 ? 0 : 1;
}
