/* expect: 7:85: error: allocator trait 'omp_atk_alignment' must be a power of two, not 96 */
#include <omp.h>

int main(void)
{
    omp_allocator_handle_t scratch = omp_null_allocator;
    omp_alloctrait_t traits[2] = {{omp_atk_pool_size, 1 << 20}, {omp_atk_alignment, 96}};
    int total = 0;
#pragma omp target map(tofrom: total) uses_allocators(scratch(traits))
    total = 1;
    return total == 1 ? 0 : 1;
}
