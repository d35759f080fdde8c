/* expect: 7:44: error: 'iterator' modifier cannot be used with 'depend(depobj)' */
#include <omp.h>

int main(void)
{
    omp_depend_t o[4];
#pragma omp task depend(iterator(i = 0:4), depobj: o[i])
    ;
    return 0;
}
