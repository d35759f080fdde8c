/* expect: 11:9: error: firstprivate variable 'dt' is private in outer context */
/* Fuzz campaign 2026-11-29 (seed 3401001): firstprivate on an orphaned worksharing construct
 * naming a local variable, which OpenMP wants shared in the region the construct binds to
 * (gcc: "firstprivate variable 'dt' is private in outer context"; Clang: "firstprivate
 * variable must be shared"): accepted before. */
#include <stdio.h>

int main(void)
{
    double dt = 0.5, x[4] = {0};
#pragma omp single firstprivate(dt)
    for (int i = 0; i < 4; i++)
        x[i] = dt * i;
    printf("%g\n", x[3]);
    return 0;
}
