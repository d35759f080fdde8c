/* A pointer mapped both as itself and as an array section based on it in one construct,
 * `map(p, p[:n])` (OpenMP Examples devices target_ptr_map.1.c): inside the region the
 * pointer points to the device copy of the section; the host pointer keeps its value. */
#include <stdio.h>
#include <stdlib.h>

#define N 100

struct mesh {
    int cells;
    double *volume;
};

int main(void)
{
    int *ptr1 = malloc(sizeof(int) * N);
    int *ptr2 = malloc(sizeof(int) * N);
    int *before = ptr1;

    /* target_ptr_map.1.c */
#pragma omp target map(ptr1, ptr1[:N]) map(ptr2[:N])
    {
        for (int i = 0; i < N; i++) {
            ptr1[i] = i;
            ptr2[i] = i;
        }
    }
    printf("ptr1[99] %d ptr2[99] %d, ptr1 unchanged %d\n", ptr1[N - 1], ptr2[N - 1], ptr1 == before);

    /* The pointer and its section with different map types, in a data region. */
    int stack_array[N];
    int *ptr3 = stack_array;
#pragma omp target data map(to: ptr3) map(from: ptr3[0:N])
    {
#pragma omp target
        for (int i = 0; i < N; i++)
            ptr3[i] = 2 * i;
    }
    printf("stack_array[99] %d\n", stack_array[N - 1]);

    /* A combined construct with a pointer read through its section. */
    struct mesh m = { N, malloc(sizeof(double) * N) };
    double *volume = m.volume, total = 0.0;
    for (int i = 0; i < N; i++)
        volume[i] = 0.5 * i;
#pragma omp target map(to: volume) map(to: volume[0:N]) map(tofrom: total)
#pragma omp teams distribute parallel for reduction(+: total)
    for (int i = 0; i < N; i++)
        total += volume[i];
    printf("total volume %.1f\n", total);

    free(ptr1);
    free(ptr2);
    free(m.volume);
    return 0;
}
