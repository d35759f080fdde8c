/* expect: 5:11: error: subscripted value is a pointer to function */
#include <stdio.h>
int main(void) {
    int i = 0;
    printf[i];
    return 0;
}
