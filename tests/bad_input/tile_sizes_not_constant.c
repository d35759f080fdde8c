/* expect: 7:24: error: argument of 'sizes' must be a positive integer constant */
#include <stdio.h>
int main(int argc, char **argv)
{
    int a[16];
    /* tile sizes are constants */
#pragma omp tile sizes(argc)
    for (int i = 0; i < 16; i++)
        a[i] = i;
    printf("%d %s\n", a[3], argv[0]);
    return 0;
}
