/* expect: 10:9: error: invalid form of '#pragma omp atomic' */
#include <stdio.h>

int main(void) {
    int flag = 0, seen = 0, i;
#pragma omp parallel for
    for (i = 0; i < 8; i++) {
        seen = i;
#pragma omp atomic update
        flag = seen + 1;
    }
    printf("%d\n", flag);
    return 0;
}
