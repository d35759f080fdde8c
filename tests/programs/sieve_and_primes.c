/* Sieve of Eratosthenes on a large heap array, prime counting, twin primes, and factorization. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    int n = 2000000, i, j, count = 0, twins = 0, last = 0;
    char *composite = malloc(n + 1);
    long long sum = 0;

    memset(composite, 0, n + 1);
    composite[0] = composite[1] = 1;
    for (i = 2; (long)i * i <= n; i++)
        if (!composite[i])
            for (j = i * i; j <= n; j += i)
                composite[j] = 1;
    for (i = 2; i <= n; i++) {
        if (!composite[i]) {
            count++;
            sum += i;
            if (i >= 5 && !composite[i - 2])
                twins++;
            last = i;
        }
    }
    printf("primes <= %d: %d, sum %lld, twin pairs %d, largest %d\n", n, count, sum, twins, last);
    /* prime counting at powers of ten */
    for (j = 10, count = 0, i = 2; j <= n; j *= 10) {
        for (; i <= j; i++)
            count += !composite[i];
        printf("pi(%d) = %d\n", j, count);
    }
    /* factorize some numbers by trial division */
    {
        long long vals[] = { 360, 97, 1001, 600851475143LL, 1LL << 40, 999999000001LL };
        int v;
        for (v = 0; v < 6; v++) {
            long long x = vals[v], d;
            printf("%lld =", x);
            for (d = 2; d * d <= x; d++)
                while (x % d == 0) {
                    printf(" %lld", d);
                    x /= d;
                }
            if (x > 1)
                printf(" %lld", x);
            printf("\n");
        }
    }
    free(composite);
    return 0;
}
