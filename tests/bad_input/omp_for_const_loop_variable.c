/* expect: 8:48: error: cannot assign to variable 'cell' with const-qualified type 'const int' */
#include <stdio.h>
int main(void)
{
    double field[64];
    int cells = 64;
#pragma omp parallel for
    for (const int cell = 0; cell < cells; cell++)
        field[cell] = 0.5 * cell;
    printf("%f\n", field[63]);
    return 0;
}
