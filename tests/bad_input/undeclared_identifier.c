/* expect: 6:14: error: use of undeclared identifier 'x' */
#include <stdio.h>

int main(void) {
    int total = 0;
    total += x;
    printf("%d\n", total);
    return 0;
}
