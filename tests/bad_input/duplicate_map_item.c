/* expect: 8:46: error: 'v' appears more than once in map clauses */
#include <stdio.h>
#define N 256

int main(void) {
    float v[N];
    int i;
#pragma omp target map(to: v[0:N]) map(from: v[N/2:N/2])
    for (i = 0; i < N; i++)
        v[i] = 2.0f * i;
    printf("%f\n", v[N - 1]);
    return 0;
}
