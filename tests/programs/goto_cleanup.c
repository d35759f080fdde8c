/* goto for error handling / cleanup and for breaking nested loops. */
#include <stdio.h>
#include <stdlib.h>

static int process(int n, int fail_at)
{
    int *a = NULL, *b = NULL, *c = NULL;
    int result = -1, i;

    a = malloc(sizeof(int) * n);
    if (!a || fail_at == 1)
        goto out;
    b = malloc(sizeof(int) * n);
    if (!b || fail_at == 2)
        goto free_a;
    c = malloc(sizeof(int) * n);
    if (!c || fail_at == 3)
        goto free_b;
    for (i = 0; i < n; i++) {
        a[i] = i;
        b[i] = i * i;
        c[i] = a[i] + b[i];
    }
    result = 0;
    for (i = 0; i < n; i++)
        result += c[i];
    free(c);
free_b:
    free(b);
free_a:
    free(a);
out:
    printf("process(%d, fail_at=%d) -> %d\n", n, fail_at, result);
    return result;
}

int main(void)
{
    int i, j, found_i = -1, found_j = -1, k;

    process(10, 0);
    process(10, 1);
    process(10, 2);
    process(10, 3);

    /* break out of a doubly nested loop */
    for (i = 0; i < 10; i++)
        for (j = 0; j < 10; j++)
            if (i * j == 42)
                goto found;
    printf("not found\n");
    goto after;
found:
    found_i = i;
    found_j = j;
after:
    printf("found %d*%d\n", found_i, found_j);

    /* a backward goto loop */
    k = 0;
again:
    k += 3;
    if (k < 20)
        goto again;
    printf("k = %d\n", k);

    /* goto into the middle of a block's statements (no declarations skipped) */
    i = 0;
    goto middle;
    {
        i += 100;
middle:
        i += 1;
    }
    printf("i = %d\n", i);
    return 0;
}
