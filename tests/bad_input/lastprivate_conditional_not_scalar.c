/* expect: 10:55: error: 'best' in 'lastprivate(conditional: ...)' must be a scalar variable (it is 'struct hit') */
#include <stdio.h>

struct hit { int index; double value; };

int main(void)
{
    struct hit best = {-1, 0.0};
    double data[8] = {3, 0, 5, 0, 0, 7, 0, 0};
    #pragma omp parallel for lastprivate(conditional: best)
    for (int i = 0; i < 8; i++)
        if (data[i] > 0)
            best = (struct hit){i, data[i]};
    printf("%d\n", best.index);
    return 0;
}
