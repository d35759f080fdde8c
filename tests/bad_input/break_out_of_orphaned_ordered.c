/* expect: 13:13: error: invalid branch to/from OpenMP structured block */
#include <stdio.h>

int main(void)
{
    int log[8], i;
    for (i = 0; i < 8; i++)
        log[i] = i == 5 ? -1 : i;
    /* the first entry out of order: a break that leaves the ordered region */
    for (i = 0; i < 8; i++)
        if (log[i] != i)
#pragma omp ordered
            break;
    printf("in order up to %d\n", i);
    return 0;
}
