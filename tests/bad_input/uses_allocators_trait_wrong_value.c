/* expect: 7:79: error: allocator trait 'omp_atk_fallback' cannot take the value 'omp_atv_pteam' */
#include <omp.h>

int main(void)
{
    omp_allocator_handle_t scratch = omp_null_allocator;
    omp_alloctrait_t traits[2] = {{omp_atk_alignment, 64}, {omp_atk_fallback, omp_atv_pteam}};
    int total = 0;
#pragma omp target map(tofrom: total) uses_allocators(scratch(traits))
    {
        int *p = (int *)omp_alloc(sizeof(int), scratch);
        total = p != 0;
        omp_free(p, scratch);
    }
    return total == 1 ? 0 : 1;
}
