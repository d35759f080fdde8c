/* A file with declare target variables and no target region (tests/native/
 * test_declare_target_globals.py): a table a library keeps on the device for kernels in
 * other files, filled and read back by `target update` alone. It still has device copies. */
#include <stdio.h>
#include <omp.h>

#pragma omp declare target
double coefficients[3] = {0.5, 0.25, 0.125};
int generation = 1;
#pragma omp end declare target

int main(void)
{
    int device = omp_get_default_device();

    printf("present: coefficients %d, generation %d\n", omp_target_is_present(coefficients, device),
           omp_target_is_present(&generation, device));
    generation = 2;
    coefficients[1] = 4.0;
    #pragma omp target update to(generation, coefficients)
    generation = 0;                               /* the host's copies only */
    coefficients[1] = -1.0;
    #pragma omp target update from(generation, coefficients[1:1])
    printf("generation %d, coefficients[1] %.2f\n", generation, coefficients[1]);
    return 0;
}
