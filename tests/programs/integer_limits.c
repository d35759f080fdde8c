/* limits.h / stdint.h limits, arithmetic at the edges that is well defined, and overflow detection. */
#include <stdio.h>
#include <limits.h>
#include <stdint.h>

static int add_overflows(int a, int b) { return (b > 0 && a > INT_MAX - b) || (b < 0 && a < INT_MIN - b); }
static int mul_overflows(long long a, long long b)
{
    if (a == 0 || b == 0) return 0;
    if (a > 0) return b > 0 ? a > LLONG_MAX / b : b < LLONG_MIN / a;
    return b > 0 ? a < LLONG_MIN / b : a != 0 && b < LLONG_MAX / a;
}

int main(void)
{
    printf("CHAR_BIT %d SCHAR %d..%d UCHAR_MAX %d\n", CHAR_BIT, SCHAR_MIN, SCHAR_MAX, UCHAR_MAX);
    printf("SHRT %d..%d USHRT_MAX %d\n", SHRT_MIN, SHRT_MAX, USHRT_MAX);
    printf("INT %d..%d UINT_MAX %u\n", INT_MIN, INT_MAX, UINT_MAX);
    printf("LONG %ld..%ld ULONG_MAX %lu\n", LONG_MIN, LONG_MAX, ULONG_MAX);
    printf("LLONG %lld..%lld ULLONG_MAX %llu\n", LLONG_MIN, LLONG_MAX, ULLONG_MAX);
    printf("INT8 %d..%d INT16 %d..%d UINT16 %u\n", INT8_MIN, INT8_MAX, INT16_MIN, INT16_MAX, (unsigned)UINT16_MAX);
    printf("INT32_MIN %d, UINT32_MAX %u, SIZE_MAX == ULONG_MAX %d\n", INT32_MIN, UINT32_MAX, SIZE_MAX == ULONG_MAX);
    printf("INT_MIN + 1 = %d, INT_MAX - 1 = %d, -INT_MAX = %d\n", INT_MIN + 1, INT_MAX - 1, -INT_MAX);
    printf("INT_MIN / 1 = %d, INT_MIN %% 1 = %d, INT_MIN / -2 = %d\n", INT_MIN / 1, INT_MIN % 1, INT_MIN / -2);
    printf("(unsigned)INT_MIN = %u, -(unsigned)INT_MIN = %u\n", (unsigned)INT_MIN, -(unsigned)INT_MIN);
    printf("(long long)INT_MIN * -1 = %lld\n", (long long)INT_MIN * -1);
    printf("(short)40000 = %d, (signed char)-129 = %d\n", (short)40000, (signed char)-129);
    printf("add_overflows(INT_MAX, 1) %d, (INT_MIN, -1) %d, (INT_MAX, -1) %d, (100, 200) %d\n",
           add_overflows(INT_MAX, 1), add_overflows(INT_MIN, -1), add_overflows(INT_MAX, -1), add_overflows(100, 200));
    printf("mul_overflows(1<<32, 1<<31) %d, (1<<31, 1<<31) %d, (-3, LLONG_MAX/3) %d, (-1, LLONG_MIN) %d\n",
           mul_overflows(1LL << 32, 1LL << 31), mul_overflows(1LL << 31, 1LL << 31), mul_overflows(-3, LLONG_MAX / 3), mul_overflows(-1, LLONG_MIN));
    /* abs of the edges via unsigned */
    {
        int v = INT_MIN;
        unsigned mag = v < 0 ? 0u - (unsigned)v : (unsigned)v;
        printf("|INT_MIN| as unsigned = %u\n", mag);
    }
    /* saturating add */
    {
        int a = INT_MAX - 5, b = 10;
        int r = add_overflows(a, b) ? (b > 0 ? INT_MAX : INT_MIN) : a + b;
        printf("saturated = %d\n", r);
    }
    return 0;
}
