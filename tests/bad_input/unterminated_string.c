/* expect: 5:12: error: missing terminating " character */
#include <stdio.h>

int main(void) {
    printf("hello\n);
    return 0;
}
