/* expect: 18:9: error: 'cancel parallel' construct not closely nested inside of 'parallel' (it is inside 'section') */
/* Fuzz campaign 2026-11-29 (seed 3401001): `cancel parallel` whose closest region is a
 * section of a `sections` construct, not the parallel region (OpenMP 4.5 2.14.1; gcc:
 * "'cancel parallel' construct not closely nested inside of 'parallel'"): accepted, it
 * would have left the sections construct's threads at its barrier. */
#include <stdio.h>

int main(void)
{
    int found = 0;
#pragma omp parallel
    {
#pragma omp sections
        {
#pragma omp section
        {
            found = 1;
#pragma omp cancel parallel
        }
        }
    }
    printf("%d\n", found);
    return 0;
}
