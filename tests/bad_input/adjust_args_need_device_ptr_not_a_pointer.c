/* expect: 7:100: error: 'n' in 'adjust_args(need_device_ptr: ...)' is not a pointer parameter of 'scale' */
#include <omp.h>

void scale_device(int n, double *x);

/* the length is no pointer: only pointers have device addresses to pass */
#pragma omp declare variant(scale_device) match(construct={dispatch}) adjust_args(need_device_ptr: n, x)
void scale(int n, double *x)
{
    for (int i = 0; i < n; i++)
        x[i] *= 2;
}

void scale_device(int n, double *x)
{
    #pragma omp target teams distribute parallel for is_device_ptr(x)
    for (int i = 0; i < n; i++)
        x[i] *= 2;
}

int main(void)
{
    double x[8] = {1};
    #pragma omp target data map(tofrom: x)
    {
        #pragma omp dispatch
        scale(8, x);
    }
    return x[0] == 2 ? 0 : 1;
}
