/* expect: 10:18: error: OpenMP runtime API call 'omp_get_thread_num' in a 'loop' region */
#include <omp.h>

int main(void)
{
    int who[64];
#pragma omp parallel
#pragma omp loop
    for (int i = 0; i < 64; i++)
        who[i] = omp_get_thread_num();
    return who[0];
}
