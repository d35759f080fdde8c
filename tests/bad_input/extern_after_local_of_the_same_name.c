/* expect: 7:16: error: conflicting types for 'a' */
#include <stdlib.h>
int main(void)
{
    int *a = malloc(4);
    free(a);
    extern int a;
    return 0;
}
