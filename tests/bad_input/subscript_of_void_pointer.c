/* expect: 7:20: error: subscript of a 'void *' pointer */
#include <stddef.h>   /* the column is the `[` in NULL's expansion, ((void *)0)[i] */
int main(void)
{
    int i, t = 1;
    for (i = 0; i < 4; i++)
        NULL[i] = t;
    return 0;
}
