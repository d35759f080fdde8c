/* A region whose copy back waits for its kernel (map(tofrom:) of a counter), then one that
 * copies nothing back (map(to:) of an array the region changes). gcc prints "2 2". */
#include <stdio.h>

int main(void) {
    int counter = 1;
    double weights[4] = {1.0, 2.0, 3.0, 4.0};
    #pragma omp target map(tofrom: counter)
    counter++;
    #pragma omp target map(to: weights)
    weights[0] += 1.0;
    printf("%d %g\n", counter, weights[0]);
    return 0;
}
