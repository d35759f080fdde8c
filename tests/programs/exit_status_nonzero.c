/* main returns a nonzero status after printing. */
#include <stdio.h>

static int compute(void)
{
    int i, s = 0;
    for (i = 1; i <= 10; i++)
        s += i;
    return s;
}

int main(void)
{
    int s = compute();
    printf("sum = %d\n", s);
    printf("returning %d\n", s % 52);
    return s % 52; /* 55 % 52 == 3 */
}
