/* map(to:) inputs, map(from:) outputs, map(alloc:) device scratch that is written before being read. */
#include <stdio.h>
#include <stdlib.h>

#define N 512

int main(void)
{
    double *in = malloc(N * sizeof *in);
    double *out = malloc(N * sizeof *out);
    double *scratch = malloc(N * sizeof *scratch);
    int ints_in[16], ints_out[16];
    int i, n = N;
    double sum = 0;

    for (i = 0; i < N; i++) {
        in[i] = i % 17;
        out[i] = -1.0;
    }
    for (i = 0; i < 16; i++)
        ints_in[i] = i * i;

#pragma omp target map(to: in[0:n]) map(from: out[0:n]) map(alloc: scratch[0:n])
    {
        int j;
        for (j = 0; j < n; j++)
            scratch[j] = in[j] * 2.0;
        for (j = 0; j < n; j++)
            out[j] = scratch[j] + (j > 0 ? scratch[j - 1] : 0.0);
    }
    for (i = 0; i < N; i++)
        sum += out[i];
    printf("out[0] = %.1f, out[1] = %.1f, out[17] = %.1f, out[N-1] = %.1f, sum = %.1f\n", out[0], out[1], out[17], out[N - 1], sum);

#pragma omp target map(to: ints_in) map(from: ints_out)
    {
        int j;
        for (j = 0; j < 16; j++)
            ints_out[j] = ints_in[15 - j] + 1;
    }
    printf("ints_out:");
    for (i = 0; i < 16; i++)
        printf(" %d", ints_out[i]);
    printf("\n");

    /* map(from:) of a scalar computed on the device */
    {
        int maxval;
#pragma omp target map(to: ints_in) map(from: maxval)
        {
            int j;
            maxval = ints_in[0];
            for (j = 1; j < 16; j++)
                if (ints_in[j] > maxval)
                    maxval = ints_in[j];
        }
        printf("maxval = %d\n", maxval);
    }
    /* parallel loop inside the target region */
#pragma omp target teams distribute parallel for map(to: in[0:n]) map(from: out[0:n])
    for (i = 0; i < n; i++)
        out[i] = in[i] * in[i];
    sum = 0;
    for (i = 0; i < N; i++)
        sum += out[i];
    printf("sum of squares = %.1f\n", sum);
    free(in);
    free(out);
    free(scratch);
    return 0;
}
