/* expect: 7:9: error: variant 'sum_async' must end with 1 'omp_interop_t' parameter for 'append_args' */
#include <omp.h>

/* the variant takes no interop object, though append_args appends one */
double sum_async(int n, const double *x);

#pragma omp declare variant(sum_async) match(construct={dispatch}) append_args(interop(targetsync))
double sum(int n, const double *x)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}

double sum_async(int n, const double *x)
{
    return sum(n, x);
}

int main(void)
{
    double x[4] = {1, 2, 3, 4}, s;
    #pragma omp dispatch
    s = sum(4, x);
    return s == 10 ? 0 : 1;
}
