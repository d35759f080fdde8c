/* expect: 11:31: error: 'history' has static storage duration: the allocator of its '#pragma omp allocate' must be a predefined allocator */
#include <omp.h>

int main(void)
{
    omp_alloctrait_t traits[1] = {{omp_atk_alignment, 64}};
    omp_allocator_handle_t aligned = omp_init_allocator(omp_default_mem_space, 1, traits);
    static double history[128];
    static int steps;
    (void)steps;
#pragma omp allocate(history) allocator(aligned)
    history[0] = 1.0;
    omp_destroy_allocator(aligned);
    return (int)history[0] - 1;
}
