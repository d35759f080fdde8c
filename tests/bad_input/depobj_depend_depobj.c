/* expect: 7:23: error: the 'depend' clause of '#pragma omp depobj' takes one item of type 'in', 'out', 'inout', 'mutexinoutset' or 'inoutset', without an iterator */
#include <omp.h>

int main(void)
{
    omp_depend_t o, p;
#pragma omp depobj(o) depend(depobj: p)
    return 0;
}
