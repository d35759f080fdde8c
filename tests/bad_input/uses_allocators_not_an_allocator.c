/* expect: 9:55: error: 'chunk' in 'uses_allocators' clause is not an allocator (of type 'int'; an 'omp_allocator_handle_t' variable or a predefined allocator) */
#include <omp.h>

int main(void)
{
    int chunk = 64, total = 0;
    omp_alloctrait_t traits[1] = {{omp_atk_alignment, 64}};
    (void)traits;
#pragma omp target map(tofrom: total) uses_allocators(chunk(traits))
    total = chunk;
    return total == 64 ? 0 : 1;
}
