/* expect: 7:55: error: 'sum' appears more than once in data clauses */
#include <stdio.h>

int main(void) {
    double x[1000], sum = 0.0;
    int i;
#pragma omp parallel for reduction(+:sum) reduction(+:sum)
    for (i = 0; i < 1000; i++) {
        x[i] = 0.5 * i;
        sum += x[i];
    }
    printf("%f\n", sum);
    return 0;
}
