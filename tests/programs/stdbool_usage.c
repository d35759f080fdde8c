/* stdbool.h / _Bool: conversions to 0/1, arithmetic, arrays of bool, bool-returning functions. */
#include <stdio.h>
#include <stdbool.h>

static bool is_prime(int n)
{
    int d;
    if (n < 2)
        return false;
    for (d = 2; d * d <= n; d++)
        if (n % d == 0)
            return false;
    return true;
}

struct flags { bool a, b, c; int n; };

int main(void)
{
    bool t = true, f = false, b;
    bool sieve[50];
    _Bool raw;
    struct flags fl = { true, false, 7, 3 };
    int i, cnt = 0;

    printf("true = %d, false = %d, sizeof(bool) = %d\n", t, f, (int)sizeof(bool));
    b = 42;
    printf("bool = 42 -> %d\n", b);
    b = -1;
    printf("bool = -1 -> %d\n", b);
    b = 0.25;
    printf("bool = 0.25 -> %d\n", b);
    b = 256;               /* not truncated to 0 like a char would be */
    printf("bool = 256 -> %d\n", b);
    raw = (_Bool)(0.0);
    printf("(_Bool)0.0 = %d\n", raw);
    {
        int x = 5;
        int *ptr = &x;
        b = ptr;
        printf("bool = pointer -> %d\n", b);
    }
    printf("t + t = %d, t * 5 = %d, !t = %d, ~t = %d\n", t + t, t * 5, !t, ~(int)t);
    b = t;
    b += 1;
    printf("true += 1 -> %d\n", b);
    b = false;
    b -= 1;
    printf("false -= 1 -> %d\n", b);
    printf("struct flags: %d %d %d %d\n", fl.a, fl.b, fl.c, fl.n);
    for (i = 0; i < 50; i++)
        sieve[i] = is_prime(i);
    for (i = 0; i < 50; i++)
        cnt += sieve[i];
    printf("primes below 50: %d\n", cnt);
    printf("primes:");
    for (i = 0; i < 50; i++)
        if (sieve[i])
            printf(" %d", i);
    printf("\n");
    /* bool in conditions and comparisons */
    b = (3 > 2) == true;
    printf("(3 > 2) == true: %d\n", b);
    b = is_prime(97) && !is_prime(91);
    printf("97 prime and 91 not: %d\n", b);
    {
        bool xs = true ^ true, xo = false | true, xa = true & false;
        printf("xor %d or %d and %d\n", xs, xo, xa);
    }
    return 0;
}
