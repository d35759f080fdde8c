/* expect: 7:40: error: '#pragma omp depobj' needs exactly one 'depend', 'update' or 'destroy' clause */
#include <omp.h>

int main(void)
{
    int a = 0; omp_depend_t o;
#pragma omp depobj(o) depend(inout: a) destroy
    return a;
}
