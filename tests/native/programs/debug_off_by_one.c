/* A bug the tools are to find (tests/native/test_debugging.py): the target region reads one
 * element past the array it maps. In the host fallback that is a heap read past a
 * malloc'd block, which valgrind's memcheck reports at this file's line marked OVERRUN; on
 * a GPU, a read past the device's copy, which compute-sanitizer reports at that line. */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 10;
    double *samples = malloc(sizeof(double) * n);
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        samples[i] = 0.5 * i;
    #pragma omp target map(to: samples[0:n]) map(tofrom: sum)
    for (int i = 0; i <= n; i++)
        sum += samples[i]; /* OVERRUN */
    printf("sum %s\n", sum >= 22.5 ? "at least 22.5" : "short");
    free(samples);
    return 0;
}
