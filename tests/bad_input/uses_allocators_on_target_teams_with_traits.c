/* expect: 9:79: error: 'uses_allocators' with a traits array ('scratch(traits)') on '#pragma omp target teams distribute parallel for' is not supported */
#include <omp.h>

int main(void)
{
    omp_allocator_handle_t scratch = omp_null_allocator;
    omp_alloctrait_t traits[1] = {{omp_atk_alignment, 64}};
    int a[64];
#pragma omp target teams distribute parallel for map(from: a) uses_allocators(scratch(traits))
    for (int i = 0; i < 64; i++)
        a[i] = i;
    return a[63] == 63 ? 0 : 1;
}
