/* expect: 9:21: error: declaration of static variable 'i' in 'for' loop initial declaration */
/* Fuzz campaign 2026-11-29 (seed 3401001): C99 6.8.5p3, a for loop's declaration declares
 * only objects of storage class auto or register (gcc's error): accepted before. */
#include <stdio.h>

int main(void)
{
    int total = 0;
    for (static int i = 0; i < 4; i++)
        total += i;
    printf("%d\n", total);
    return 0;
}
