/* private and firstprivate arrays and structs on a plain target construct: the region works on
 * its own copies (firstprivate ones initialised from the originals), and the originals are
 * unchanged after it, on every device and scheme (the control loop used the mapped
 * originals, copying the region's writes back). */
#include <stdio.h>
struct cfg { int a[4]; double w; };
int main(void) {
    int arr[8], i, out[2];
    struct cfg c = {{1, 2, 3, 4}, 0.5};
    for (i = 0; i < 8; i++) arr[i] = 1;
#pragma omp target firstprivate(arr, c) map(from: out)
    {
        for (i = 1; i < 8; i++) arr[i] = arr[i - 1] * 2;
        c.a[0] = 99; c.w = 2.5;
        out[0] = arr[7]; out[1] = c.a[0] + c.a[3];
    }
    printf("%d %d / original %d %d %.1f\n", out[0], out[1], arr[7], c.a[0], c.w);
    int scratch[8];
    for (i = 0; i < 8; i++) scratch[i] = 7;
#pragma omp target private(scratch) map(from: out)
    {
        for (i = 0; i < 8; i++) scratch[i] = i * i;
        out[0] = scratch[7];
    }
    printf("%d / original %d\n", out[0], scratch[7]);
    return 0;
}
