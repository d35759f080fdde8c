/* A `target parallel` region whose master resets a shared total, then a barrier, then a
 * worksharing loop that reduces into that shared total, and a single that checks it:
 * the shape of the OpenMP Examples' reduction.3, which hung on the H200 when LLVM
 * copied the barrier into the master's branch and the others' (session 28). */
#include <stdio.h>

#define COUNT 1000

static int check_weights(const int *weights, int n, int expected)
{
    int total, mismatch = 0;

    #pragma omp target parallel shared(total) map(to: weights[0:n]) map(tofrom: mismatch)
    {
        #pragma omp master
        total = 0;

        #pragma omp barrier

        #pragma omp for reduction(+: total)
        for (int i = 0; i < n; i++)
            total += weights[i];

        #pragma omp single
        {
            if (total != expected) {
                printf("total %d, expected %d\n", total, expected);
                mismatch = 1;
            } else {
                printf("total %d as expected\n", total);
            }
        }
    }
    return mismatch;
}

int main(void)
{
    static int weights[COUNT];
    int i, failures = 0;

    for (i = 0; i < COUNT; i++)
        weights[i] = i % 7 + 1;
    failures += check_weights(weights, COUNT, 3997);
    failures += check_weights(weights, COUNT / 2, 1994);
    printf("%d mismatches\n", failures);
    return failures;
}
