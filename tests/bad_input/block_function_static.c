/* expect: 6:12: error: invalid storage class for function 'free' */
#include <stdlib.h>
int main(void)
{
    int *pool = malloc(4 * sizeof *pool);
    static free(pool);   /* gcc: invalid storage class; was an internal error (fuzz, session 31) */
    return 0;
}
