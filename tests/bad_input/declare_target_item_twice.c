/* expect: 9:50: error: 'coef' appears more than once in the clauses of one 'declare target' directive */
/* Fuzz campaign 2026-11-29 (seed 3401001): a variable twice on one declare target
 * directive (gcc: "appears more than once on the same 'declare target' directive"):
 * accepted before. */
#include <stdio.h>

double coef[4] = {1, 2, 3, 4};
int hits;
#pragma omp declare target link(coef, hits) link(coef, hits)

int main(void)
{
    printf("%g %d\n", coef[0], hits);
    return 0;
}
