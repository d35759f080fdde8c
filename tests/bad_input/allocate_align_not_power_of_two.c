/* expect: 7:67: error: 'align' must be a power of two, not 48 */
#include <omp.h>

int main(void)
{
    float line[96];
#pragma omp allocate(line) allocator(omp_default_mem_alloc) align(48)
    line[0] = 0.0f;
    return (int)line[0];
}
