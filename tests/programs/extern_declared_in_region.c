/* A global named through an `extern` declaration inside a target region (and inside a
   function the region calls): no capture maps it, and it is not `declare target`, so the
   region runs on the host, with a remark; the same global mapped through its file-scope
   declaration runs on the device. Every device prints gcc's numbers. */
#include <stdio.h>

int offset = 5;
int scale = 3;

static int scaled(int v)
{
    extern int scale;
    return v * scale;
}

int main(void)
{
    int out[8], i;

#pragma omp target map(from: out)
    {
        extern int offset;
        for (int j = 0; j < 8; j++)
            out[j] = j + offset;
    }
    for (i = 0; i < 8; i++)
        printf("%d ", out[i]);
    printf("\n");

#pragma omp target teams distribute parallel for map(from: out)
    for (i = 0; i < 8; i++)
        out[i] = scaled(i);
    for (i = 0; i < 8; i++)
        printf("%d ", out[i]);
    printf("\n");

    /* the file-scope names: implicitly mapped, on the device */
#pragma omp target teams distribute parallel for map(from: out)
    for (i = 0; i < 8; i++)
        out[i] = i * scale + offset;
    for (i = 0; i < 8; i++)
        printf("%d ", out[i]);
    printf("\n");
    return 0;
}
