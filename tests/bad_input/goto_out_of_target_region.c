/* expect: 12:13: error: invalid branch to/from OpenMP structured block */
#include <stdlib.h>

static int process(int n)
{
    int *buffer = malloc(n * sizeof *buffer), i;
    if (!buffer)
        goto done;
#pragma omp target teams map(tofrom: buffer[0:n])
    {
        if (n > 4)
            goto done;      /* leaves the region: gcc refuses it */
        for (i = 0; i < n; i++)
            buffer[i] = i;
    }
done:
    free(buffer);
    return 0;
}

int main(void)
{
    return process(8);
}
