/* Static local variables keep their value across calls. */
#include <stdio.h>

static int counter(void)
{
    static int n;          /* zero-initialized */
    return ++n;
}

static int fib_memo(int k)
{
    static long long memo[50];
    static int calls = 0;
    calls++;
    if (k < 2)
        return k;
    if (memo[k])
        return (int)memo[k];
    memo[k] = fib_memo(k - 1) + fib_memo(k - 2);
    if (k == 40)
        printf("calls so far at k=40: %d\n", calls);
    return (int)memo[k];
}

static const char *next_name(void)
{
    static const char *names[] = { "ann", "bob", "cy" };
    static int idx = 0;
    const char *r = names[idx];
    idx = (idx + 1) % 3;
    return r;
}

static int *get_static_array(void)
{
    static int arr[4] = { 1, 2, 3, 4 };
    return arr;
}

static double running_mean(double x)
{
    static double sum = 0.0;
    static int n = 0;
    sum += x;
    n++;
    return sum / n;
}

int main(void)
{
    int i;
    int *p;

    for (i = 0; i < 5; i++)
        printf("counter = %d\n", counter());
    printf("fib(40) = %d\n", fib_memo(40));
    printf("fib(45) = %d\n", fib_memo(45));
    for (i = 0; i < 5; i++)
        printf("name %s\n", next_name());
    p = get_static_array();
    p[2] = 30;
    p = get_static_array();
    printf("static array: %d %d %d %d\n", p[0], p[1], p[2], p[3]);
    for (i = 1; i <= 4; i++)
        printf("mean = %.3f\n", running_mean(i * 2.0));
    {
        static int block_static = 10;
        block_static += 5;
        printf("block static = %d\n", block_static);
    }
    return 0;
}
