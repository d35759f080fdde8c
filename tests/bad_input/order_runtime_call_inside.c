/* expect: 9:18: error: OpenMP runtime API call 'omp_get_thread_num' in a region with the 'order(concurrent)' clause */
#include <omp.h>

int main(void)
{
    int who[64];
#pragma omp simd order(concurrent)
    for (int i = 0; i < 64; i++)
        who[i] = omp_get_thread_num();
    return who[0];
}
