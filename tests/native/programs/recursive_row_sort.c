/* Recursion on the device, as real codes write it: each row of a table sorted by a
 * recursive merge sort (a declare-target function calling itself through a helper),
 * and each row's checksum by a recursive divide-and-conquer sum; then a recursion as deep as
 * the second argument asks (each thread's stack must hold it: LIBOMPTARGET_STACK_SIZE). The
 * image has recursion, so it is compiled relocatable and linked
 * (tests/native/test_relocatable_link.py). */
#include <stdio.h>
#include <stdlib.h>

#define ROWS 64
#define COLS 200

#pragma omp declare target
static void merge(int *a, int *scratch, int low, int middle, int high)
{
    int i = low, j = middle, k = low;
    while (i < middle && j < high)
        scratch[k++] = a[i] <= a[j] ? a[i++] : a[j++];
    while (i < middle)
        scratch[k++] = a[i++];
    while (j < high)
        scratch[k++] = a[j++];
    for (k = low; k < high; k++)
        a[k] = scratch[k];
}

static void merge_sort(int *a, int *scratch, int low, int high)
{
    int middle;
    if (high - low < 2)
        return;
    middle = low + (high - low) / 2;
    merge_sort(a, scratch, low, middle);
    merge_sort(a, scratch, middle, high);
    merge(a, scratch, low, middle, high);
}

/* trail[n] depends on the call below it: no loop can replace the recursion */
static int descend(int *trail, int n)
{
    int below;
    if (n == 0)
        return trail[0] = 1;
    below = descend(trail, n - 1);
    trail[n] = (below * 3 + n) % 1009;
    return trail[n];
}

static long weighted_sum(const int *a, int low, int high)
{
    if (high - low == 1)
        return (long)a[low] * (low + 1);
    return weighted_sum(a, low, low + (high - low) / 2) + weighted_sum(a, low + (high - low) / 2, high);
}
#pragma omp end declare target

int main(int argc, char **argv)
{
    int rows = argc > 1 ? atoi(argv[1]) : ROWS, depth = argc > 2 ? atoi(argv[2]) : 10;
    int *table = malloc(sizeof(int) * rows * COLS), *scratch = malloc(sizeof(int) * rows * COLS);
    int *trail = malloc(sizeof(int) * (depth + 1)), deepest = 0;
    long *sums = malloc(sizeof(long) * rows), total = 0;
    int row, k, sorted = 1;
    unsigned seed = 12345;

    for (k = 0; k < rows * COLS; k++) {
        seed = seed * 1103515245u + 12345u;
        table[k] = (int)((seed >> 8) % 10007);
    }

#pragma omp target teams distribute map(tofrom: table[0:rows * COLS]) map(alloc: scratch[0:rows * COLS]) \
    map(from: sums[0:rows])
    for (row = 0; row < rows; row++) {
        merge_sort(table + row * COLS, scratch + row * COLS, 0, COLS);
        sums[row] = weighted_sum(table + row * COLS, 0, COLS);
    }

#pragma omp target map(from: trail[0:depth + 1], deepest)
    deepest = descend(trail, depth);

    for (row = 0; row < rows; row++) {
        for (k = 1; k < COLS; k++)
            sorted &= table[row * COLS + k - 1] <= table[row * COLS + k];
        total += sums[row];
    }
    printf("rows %d sorted %d, weighted sum %ld, row 5 starts %d %d %d\n", rows, sorted, total,
           table[5 * COLS], table[5 * COLS + 1], table[5 * COLS + 2]);
    printf("depth %d: %d, trail[%d] = %d\n", depth, deepest, depth / 2, trail[depth / 2]);
    free(trail);
    free(table);
    free(scratch);
    free(sums);
    return 0;
}
