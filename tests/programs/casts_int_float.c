/* Conversions between integer and floating types: truncation toward zero, rounding, ranges. */
#include <stdio.h>
#include <stdint.h>

int main(void)
{
    double vals[] = { 2.5, -2.5, 2.9999, -2.9999, 0.49, -0.0, 1e9, -1e9, 2147483647.0, 123456789.987 };
    int i;
    float f;
    double d;
    long long ll;
    unsigned u;

    for (i = 0; i < (int)(sizeof vals / sizeof vals[0]); i++)
        printf("(int)%g = %d, (long long) = %lld\n", vals[i], (int)vals[i], (long long)vals[i]);
    /* int -> float loses precision above 2^24 */
    i = 16777217;
    f = (float)i;
    printf("(float)16777217 = %.1f\n", f);
    printf("(int)(float)16777217 = %d\n", (int)f);
    /* long long -> double loses precision above 2^53 */
    ll = 9007199254740993LL;
    d = (double)ll;
    printf("(double)2^53+1 = %.1f, back = %lld\n", d, (long long)d);
    /* unsigned <-> double */
    u = 4000000000u;
    d = u;
    printf("(double)4000000000u = %.1f\n", d);
    u = (unsigned)3999999999.7;
    printf("(unsigned)3999999999.7 = %u\n", u);
    /* uint64 from double */
    {
        uint64_t big = (uint64_t)1.8e19;
        printf("(uint64_t)1.8e19 = %llu\n", (unsigned long long)big);
        d = (double)UINT64_C(18446744073709551615);
        printf("(double)UINT64_MAX = %.1f\n", d);
    }
    /* negative int -> double -> unsigned char via int */
    printf("(unsigned char)(int)-3.7 = %d\n", (unsigned char)(int)-3.7);
    /* char and short to float */
    {
        signed char sc = -100;
        short sh = -30000;
        unsigned short us = 60000;
        printf("%f %f %f\n", (double)sc, (float)sh * 2.0f, us / 7.0);
    }
    /* integer division vs float division */
    printf("7/2 = %d, 7/2.0 = %f, (double)7/2 = %f, (double)(7/2) = %f\n", 7 / 2, 7 / 2.0, (double)7 / 2, (double)(7 / 2));
    /* float -> double is exact, double -> float rounds */
    f = 0.1f;
    d = f;
    printf("0.1f as double = %.17g\n", d);
    f = (float)0.1;
    printf("(float)0.1 = %.9g\n", f);
    f = (float)1e-50;
    printf("(float)1e-50 = %g\n", f);
    f = (float)1e50;
    printf("(float)1e50 = %g\n", f);
    /* implicit conversion in assignment and arguments */
    i = 3.99;
    printf("int i = 3.99 -> %d\n", i);
    d = 'A';
    printf("double d = 'A' -> %f\n", d);
    /* int to float comparisons */
    printf("16777217 == (float)16777217: %d\n", 16777217 == (float)16777217);
    printf("3 == 3.0: %d, 1/3.0 == 1/3.0f: %d\n", 3 == 3.0, 1 / 3.0 == 1 / 3.0f);
    /* bool conversion */
    printf("!!0.5 = %d, !0.0 = %d, (_Bool)0.1 = %d\n", !!0.5, !0.0, (_Bool)0.1);
    return 0;
}
