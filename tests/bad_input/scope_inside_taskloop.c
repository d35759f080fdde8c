/* expect: 15:21: error: 'scope' region may not be closely nested inside a 'taskloop' region */
#include <stdio.h>

int main(void)
{
    double cells[64];
    double total = 0.0;
    #pragma omp parallel
    #pragma omp single
    {
        #pragma omp taskloop grainsize(8)
        for (int i = 0; i < 64; i++) {
            cells[i] = 0.5 * i;
            /* a worksharing region inside a task of the taskloop: gcc rejects it too */
            #pragma omp scope reduction(+: total)
            total += cells[i];
        }
    }
    printf("%.1f\n", total);
    return 0;
}
