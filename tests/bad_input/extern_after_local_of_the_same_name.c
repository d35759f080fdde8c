/* expect: 7:12: error: conflicting types for 'a' */
#include <stdlib.h>
int main(void)
{
    int *a = malloc(4);
    free(a);
    extern(a);
    return 0;
}
