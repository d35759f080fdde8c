/* expect: 10:46: error: 'omp_high_bw_mem_alloc' in 'uses_allocators' clause's 'memspace' modifier is not a memory space (omp_default_mem_space, omp_high_bw_mem_space, ...) */
#include <omp.h>

int main(void)
{
    omp_allocator_handle_t scratch = omp_null_allocator;
    omp_alloctrait_t traits[1] = {{omp_atk_alignment, 64}};
    int a[64];
#pragma omp target teams distribute parallel for map(from: a) \
    uses_allocators(traits(traits), memspace(omp_high_bw_mem_alloc): scratch)
    for (int i = 0; i < 64; i++)
        a[i] = omp_alloc(8, scratch) != 0;
    return a[63] == 1 ? 0 : 1;
}
