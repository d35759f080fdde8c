/* expect: 13:9: error: invalid expression type 'struct point' for '#pragma omp atomic' */
#include <stdio.h>

struct point { double x, y; };

int main(void) {
    struct point last = { 0.0, 0.0 };
    int i;
#pragma omp parallel for
    for (i = 0; i < 4; i++) {
        struct point here = { i, 2.0 * i };
#pragma omp atomic write
        last = here;
    }
    printf("%f\n", last.x);
    return 0;
}
