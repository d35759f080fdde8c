/* expect: 13:28: error: 'dt' not specified in enclosing 'target' (it has 'defaultmap(none)' for its category: list it in a map or data-sharing clause) */
#include <stdio.h>
#define N 512

int main(void) {
    double u[N], v[N], dt = 0.1;
    for (int i = 0; i < N; i++) u[i] = v[i] = i;
    for (int step = 0; step < 10; step++) {
        /* every variable must be listed; dt, a scalar, is not */
#pragma omp target teams distribute parallel for defaultmap(none) map(tofrom: u) map(to: v)
        for (int i = 0; i < N; i++) {
            double flux = v[i] - u[i];
            u[i] += flux * dt;
        }
    }
    printf("%f\n", u[N - 1]);
    return 0;
}
