/* Global variables in declare target: static initial values, target update to/from, use from functions. */
#include <stdio.h>

#define N 16

#pragma omp declare target
int g_table[N] = { 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987 };
double g_scale = 2.0;
int g_result[N];
long g_counter;
static const int g_weights[4] = { 1, 10, 100, 1000 };

static int weighted(int i) { return g_table[i] * g_weights[i % 4]; }
#pragma omp end declare target

int main(void)
{
    int i;
    long total = 0;
    double scaled = 0;

    /* read the statically initialized device copies */
#pragma omp target map(tofrom: total)
    {
        int j;
        for (j = 0; j < N; j++)
            total += weighted(j);
    }
    printf("weighted total = %ld\n", total);

    /* device writes a global; host fetches it with target update from */
#pragma omp target teams distribute parallel for
    for (i = 0; i < N; i++)
        g_result[i] = g_table[i] * 3;
#pragma omp target update from(g_result)
    printf("g_result:");
    for (i = 0; i < N; i++)
        printf(" %d", g_result[i]);
    printf("\n");

    /* host changes a global and pushes it with target update to */
    g_scale = 0.5;
#pragma omp target update to(g_scale)
#pragma omp target map(tofrom: scaled)
    {
        int j;
        for (j = 0; j < N; j++)
            scaled += g_table[j] * g_scale;
    }
    printf("scaled sum = %.2f\n", scaled);

    /* device-side accumulation into a global scalar */
    g_counter = 100;
#pragma omp target update to(g_counter)
#pragma omp target teams distribute parallel for
    for (i = 0; i < 1000; i++) {
#pragma omp atomic
        g_counter += i % 2;
    }
#pragma omp target update from(g_counter)
    printf("g_counter = %ld\n", g_counter);

    /* modify part of a global array on the host, update only that section */
    g_table[0] = 1000;
    g_table[1] = 2000;
#pragma omp target update to(g_table[0:2])
#pragma omp target map(tofrom: total)
    total = g_table[0] + g_table[1] + g_table[15];
    printf("after partial update total = %ld\n", total);
    return 0;
}
