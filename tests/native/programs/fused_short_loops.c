/* Fused launches of loops of different, short lengths (runtime/offload/fused_launches.c): a
 * region whose loop would leave multiprocessors without a block runs alone in narrower
 * blocks spread over them (policy.c's spread_block), each length its own block size; fused,
 * the other parts' blocks fill the device, so every part takes the kernel's default block
 * and the six launches, held until the taskwait, run as one. Each writes its own slice:
 * the sum says every one ran once. */
#include <stdio.h>
#include <stdlib.h>

#define PARTS 6

int main(void) {
    const int lengths[PARTS] = {100, 700, 40, 2000, 333, 64};
    int starts[PARTS + 1] = {0}, part, i;
    double *values, sum = 0.0, expected = 0.0;
    for (part = 0; part < PARTS; part++)
        starts[part + 1] = starts[part] + lengths[part];
    values = malloc(sizeof(double) * starts[PARTS]);
    for (i = 0; i < starts[PARTS]; i++)
        values[i] = -1.0;
    #pragma omp target data map(tofrom: values[0:starts[PARTS]])
    {
        for (part = 0; part < PARTS; part++) {
            const int first = starts[part], last = starts[part + 1];
            #pragma omp target teams distribute parallel for nowait
            for (i = first; i < last; i++)
                values[i] = part + 0.5;
        }
        #pragma omp taskwait
    }
    for (i = 0; i < starts[PARTS]; i++)
        sum += values[i];
    for (part = 0; part < PARTS; part++)
        expected += lengths[part] * (part + 0.5);
    printf("sum %.1f (expected %.1f)\n", sum, expected);
    free(values);
    return 0;
}
