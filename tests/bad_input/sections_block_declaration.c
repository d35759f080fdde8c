/* expect: 9:19: error: a declaration cannot be a section of '#pragma omp sections' (expected a statement) */
#include <stdio.h>

int main(void)
{
#pragma omp parallel
#pragma omp sections
    {
        long long vals[] = { 360, 97 };
        printf("%lld\n", vals[0]);
    }
    return 0;
}
