/* expect: 12:39: error: 'grid' appears more than once in motion clauses */
#include <stdio.h>
#define N 64

double grid[N];

int main(void) {
    int i;
#pragma omp target enter data map(to: grid)
    for (i = 0; i < N; i++)
        grid[i] = i;
#pragma omp target update to(grid) to(grid)
#pragma omp target exit data map(from: grid)
    printf("%f\n", grid[N - 1]);
    return 0;
}
