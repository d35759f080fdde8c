/* expect: 4:1: error: unknown type name 'double unsigned long' */
/* A type specifier left before a header: it joins the header's first typedef, which
   later declarations use (a fuzz finding: an internal error in the facts walk). */
double
#include <stdio.h>
int main(void)
{
    printf("%d\n", 1);
    return 0;
}
