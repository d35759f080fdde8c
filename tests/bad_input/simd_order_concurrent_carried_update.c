/* expect: 13:9: error: data race: every iteration of the region with 'order(concurrent)' writes 'energy', which the SIMD lanes share */
#include <stdio.h>

#define N 256

int main(void)
{
    double velocity[N], energy = 0.0;
    for (int i = 0; i < N; i++)
        velocity[i] = 0.01 * i;
    #pragma omp simd order(concurrent)
    for (int i = 0; i < N; i++)
        energy = energy + 0.5 * velocity[i] * velocity[i];    /* needs reduction(+: energy) */
    printf("%.4f\n", energy);
    return 0;
}
