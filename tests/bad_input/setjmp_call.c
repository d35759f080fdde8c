/* expect: 6:9: error: setjmp is not supported */
#include <setjmp.h>
#include <stdio.h>
static jmp_buf recover;
int main(void) {
    if (setjmp(recover) == 0)
        puts("first pass");
    return 0;
}
