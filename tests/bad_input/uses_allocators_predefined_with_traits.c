/* expect: 8:75: error: predefined allocator 'omp_pteam_mem_alloc' cannot have traits in 'uses_allocators' clause */
#include <omp.h>

int main(void)
{
    omp_alloctrait_t traits[1] = {{omp_atk_alignment, 64}};
    int total = 0;
#pragma omp target map(tofrom: total) uses_allocators(omp_pteam_mem_alloc(traits))
    total = 1;
    return total == 1 ? 0 : 1;
}
