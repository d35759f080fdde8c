/* expect: 6:50: error: 'scale' appears more than once in data clauses */
#include <stdio.h>

int main(void) {
    double scale = 2.0, total = 0.0;
#pragma omp parallel private(scale) firstprivate(scale) shared(total)
    {
        scale = scale * 2.0;
#pragma omp atomic
        total += scale;
    }
    printf("%f\n", total);
    return 0;
}
