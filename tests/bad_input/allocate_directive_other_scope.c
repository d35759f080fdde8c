/* expect: 8:22: error: 'buffer' in '#pragma omp allocate' must be declared in the same scope as the directive */
#include <omp.h>

int main(void)
{
    double buffer[64];
    {
#pragma omp allocate(buffer) allocator(omp_large_cap_mem_alloc)
        buffer[0] = 1.0;
    }
    return (int)buffer[0] - 1;
}
