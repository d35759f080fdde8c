/* expect: 7:23: error: expected '(' after 'update' */
#include <omp.h>

int main(void)
{
    omp_depend_t o;
#pragma omp depobj(o) update
    return 0;
}
