/* expect: 9:28: error: expected a va_list */
/* was an internal error: a va_list * read as a va_list (the column counts in va_arg's expansion) */
#include <stdarg.h>

static int first(int n, ...)
{
    va_list list, *ap = &list;
    int x;
    x = va_arg(ap, int);    /* ap is no va_list */
    return x + n;
}

int main(void)
{
    return first(1, 2);
}
