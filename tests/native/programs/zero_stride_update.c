/* A strided target update whose stride the program computes as 0: the runtime's located
   error (a constant one is the compiler's). */
#include <stdio.h>
int main(int argc, char **argv) {
    int step = argc - 1;                /* 0 when run without arguments */
    double a[16] = {0};
#pragma omp target data map(tofrom: a)
    {
        a[0] = 1.0;
#pragma omp target update to(a[0:4:step])
    }
    printf("a[0] %g\n", a[0]);
    return 0;
}
