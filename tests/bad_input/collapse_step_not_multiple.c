/* expect: 9:38: error: invalid non-rectangular loop step: the bounds of 'j' move by -1 from one 'i' iteration to the next, not a multiple of its step 2 (OpenMP 5.1 2.11.1) */
#include <stdio.h>
int main(void)
{
    long sum = 0;
    /* OpenMP wants (cu - cl) * outer step to be a multiple of the inner step: gcc says so too */
#pragma omp parallel for collapse(2) reduction(+: sum)
    for (int i = 0; i < 40; i++)
        for (int j = i; j < 40; j += 2)
            sum += i * 100 + j;
    printf("%ld\n", sum);
    return 0;
}
