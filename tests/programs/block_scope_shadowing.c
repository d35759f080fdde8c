/* Block scopes: shadowing of globals, parameters and outer locals; lifetime of block variables in loops. */
#include <stdio.h>

int x = 1;
static int counter = 100;

static int f(int x)
{
    int r = x;         /* parameter shadows the global */
    {
        int x = r * 10;
        r += x;
        {
            int x = -1;
            r += x;
        }
        r += x;
    }
    return r + x;
}

int main(void)
{
    int i, total = 0;
    printf("global x = %d\n", x);
    {
        int x = 2;
        printf("block x = %d\n", x);
        {
            int x = 3;
            x++;
            printf("inner x = %d\n", x);
        }
        printf("block x again = %d\n", x);
    }
    printf("global x again = %d\n", x);
    printf("f(5) = %d\n", f(5));
    /* a loop body variable is re-initialized every iteration */
    for (i = 0; i < 4; i++) {
        int fresh = 10;
        fresh += i;
        total += fresh;
    }
    printf("total = %d\n", total);
    /* the for-init declaration shadows the outer i only inside the loop */
    for (int i = 100; i < 103; i++)
        total += i;
    printf("outer i = %d, total = %d\n", i, total);
    /* shadowing a static global */
    {
        int counter = 5;
        counter++;
        printf("local counter = %d\n", counter);
    }
    counter++;
    printf("static counter = %d\n", counter);
    /* a name used as both a struct tag and a variable */
    {
        struct x { int x; } x;
        x.x = 77;
        printf("struct x.x = %d\n", x.x);
    }
    /* labels have function scope and do not clash with variables */
    {
        int done = 0;
        goto done;
    done:
        done = 1;
        printf("label and variable named done: %d\n", done);
    }
    return 0;
}
