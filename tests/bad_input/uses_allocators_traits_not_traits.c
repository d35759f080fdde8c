/* expect: 9:60: error: traits 'sizes' of allocator 'pool' in 'uses_allocators' clause must be an array of 'omp_alloctrait_t' of constant size */
#include <omp.h>

int main(void)
{
    omp_allocator_handle_t pool = omp_null_allocator;
    unsigned long sizes[2] = {omp_atk_pool_size, 4096};
    int total = 0;
#pragma omp target map(tofrom: total) uses_allocators(pool(sizes))
    {
        int *p = (int *)omp_alloc(sizeof(int), pool);
        *p = 1;
        total = *p;
        omp_free(p, pool);
    }
    return total == 1 ? 0 : 1;
}
