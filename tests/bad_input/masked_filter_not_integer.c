/* expect: 11:35: error: 'filter' needs an integer expression */
#include <stdio.h>

int main(void)
{
    double share = 1.0;
    int done = 0;
    #pragma omp parallel num_threads(4)
    {
        /* the filter names a thread: an integer, as gcc requires */
        #pragma omp masked filter(share)
        done++;
    }
    printf("%d\n", done);
    return 0;
}
