/* expect: 7:22: error: use of undeclared identifier 'scratch' */
#include <omp.h>

int main(void)
{
    double work[16];
#pragma omp allocate(scratch) allocator(omp_high_bw_mem_alloc)
    work[0] = 0.0;
    return (int)work[0];
}
