/* 64-bit integers: long long, int64_t/uint64_t, limits, mul/div/mod, mixing with 32-bit, literals. */
#include <stdio.h>
#include <stdint.h>
#include <limits.h>
#include <inttypes.h>

static int64_t mulmod(int64_t a, int64_t b, int64_t m)
{
    int64_t r = 0;
    a %= m;
    while (b > 0) {
        if (b & 1)
            r = (r + a) % m;
        a = (a * 2) % m;
        b >>= 1;
    }
    return r;
}

static uint64_t isqrt64(uint64_t n)
{
    uint64_t x = n, y = (x + 1) / 2;
    while (y < x) {
        x = y;
        y = (x + n / x) / 2;
    }
    return x;
}

int main(void)
{
    long long a = 3000000000LL, b = -7;
    int32_t i32 = INT32_MAX;
    int64_t prod;
    uint64_t u = 0;
    int i;

    printf("LLONG_MAX = %lld, LLONG_MIN = %lld\n", LLONG_MAX, LLONG_MIN);
    printf("INT64_MAX = %" PRId64 ", UINT64_MAX = %" PRIu64 "\n", INT64_MAX, UINT64_MAX);
    printf("a*a = %lld\n", a * a);
    printf("a/b = %lld, a%%b = %lld, b/2 = %lld, b%%2 = %lld\n", a / b, a % b, b / 2, b % 2);
    /* 32-bit overflow avoided by widening before the multiply */
    prod = (int64_t)i32 * 2;
    printf("(int64_t)INT32_MAX * 2 = %" PRId64 "\n", prod);
    prod = (int64_t)i32 * i32;
    printf("INT32_MAX^2 = %" PRId64 "\n", prod);
    /* int + long long */
    printf("INT_MAX + 1LL = %lld, INT_MIN - 1LL = %lld\n", INT_MAX + 1LL, INT_MIN - 1LL);
    /* powers of 3 */
    u = 1;
    for (i = 0; i < 40; i++)
        u *= 3;
    printf("3^40 = %llu\n", (unsigned long long)u);
    printf("mulmod = %" PRId64 "\n", mulmod(INT64_C(123456789012345), INT64_C(987654321098), INT64_C(1000000007)));
    printf("isqrt(10^18) = %" PRIu64 ", isqrt(2^63) = %" PRIu64 "\n", isqrt64(UINT64_C(1000000000000000000)), isqrt64(UINT64_C(1) << 63));
    /* literal types */
    printf("sizeof 2147483648 = %d, sizeof 0x80000000 = %d, sizeof 4294967296 = %d\n",
           (int)sizeof 2147483648, (int)sizeof 0x80000000, (int)sizeof 4294967296);
    printf("-2147483648 > 0: %d\n", -2147483648 > 0);
    /* truncation to 32 bits */
    printf("(int)0x123456789 = %d, (unsigned)-1LL = %u\n", (int)0x123456789LL, (unsigned)-1LL);
    /* shifts and masks on 64 bits */
    printf("(1ULL<<63)>>63 = %llu, -1LL>>40 = %lld, 0xffULL<<56 = %llx\n", (1ULL << 63) >> 63, -1LL >> 40, 0xffULL << 56);
    /* comparisons */
    printf("-1LL < 1ULL: %d, -1LL < 1LL: %d\n", (unsigned long long)-1LL < 1ULL, -1LL < 1LL);
    /* factorial overflow boundary */
    {
        int64_t f = 1;
        for (i = 1; i <= 20; i++)
            f *= i;
        printf("20! = %" PRId64 "\n", f);
    }
    /* int64 division by negative and modulo sign */
    printf("%lld %lld %lld %lld\n", -9000000000LL / 4, -9000000000LL % 4, 9000000000LL / -4, 9000000000LL % -4);
    return 0;
}
