/* expect: 10:25: error: the bounds of a collapsed loop may not use 'width', declared in the code between the collapsed loops */
#include <stdio.h>
int main(void)
{
    long sum = 0;
    /* code between collapsed loops runs inside the nest: the inner bound must be known before */
#pragma omp parallel for collapse(2) reduction(+: sum)
    for (int i = 0; i < 8; i++) {
        int width = i + 1;
        for (int j = 0; j < width; j++)
            sum += j;
    }
    printf("%ld\n", sum);
    return 0;
}
