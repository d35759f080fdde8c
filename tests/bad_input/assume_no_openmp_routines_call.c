/* expect: 8:19: error: call of 'omp_get_max_threads' inside an 'assume' region with 'no_openmp_routines' */
#include <omp.h>
int main(void)
{
    int threads = 0;
#pragma omp assume no_openmp_routines
    {
        threads = omp_get_max_threads();
    }
    return threads;
}
