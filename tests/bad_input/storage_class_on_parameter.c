/* expect: 3:37: error: storage class specified for parameter 'label' */
#include <stdio.h>
static void show(const extern char *label, int n)
{
    printf("%s %d\n", label, n);
}

int main(void)
{
    show("n", 1);
    return 0;
}
