/* expect: 7:10: error: subscript of a 'void *' pointer */
#include <stddef.h>
int main(void)
{
    int i, t = 1;
    for (i = 0; i < 4; i++)
        NULL[i] = t;
    return 0;
}
