/* A declare-target global the device code uses and one it never does (LLVM drops it from
 * the device module, so no module holds it), over many launches: the runtime looks each up
 * on the device once, not at every launch (runtime/offload/images.c). */
#include <stdio.h>

#define LAUNCHES 50

#pragma omp declare target
int used_on_device = 3;
int never_on_device = 5;
#pragma omp end declare target

int main(void)
{
    int sum = 0, r;
    for (r = 0; r < LAUNCHES; r++) {
        #pragma omp target map(tofrom: sum)
        sum += used_on_device;
    }
    printf("sum %d, the host's own %d\n", sum, never_on_device);
    return 0;
}
