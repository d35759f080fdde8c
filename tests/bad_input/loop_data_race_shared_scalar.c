/* expect: 12:9: error: data race: every iteration of the 'loop' region writes 'sum', which the threads share */
/* The running sum is shared by the threads that run the iterations at once. */
#include <stdio.h>

int main(void)
{
    double x[256], sum = 0.0;
    for (int i = 0; i < 256; i++)
        x[i] = i * 0.5;
#pragma omp target teams loop map(to: x) map(tofrom: sum)
    for (int i = 0; i < 256; i++)
        sum += x[i];
    printf("%g\n", sum);
    return 0;
}
