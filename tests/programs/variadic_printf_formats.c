/* printf formats and default argument promotions of variadic arguments (float->double, char->int). */
#include <stdio.h>
#include <limits.h>
#include <stdint.h>
#include <inttypes.h>

static char long_text[] = "truncated string";

int main(void)
{
    float f = 2.75f;
    char c = 'Z';
    signed char sc = -5;
    unsigned char uc = 250;
    short s = -1234;
    unsigned short us = 65000;
    long l = -1234567890123L;
    unsigned long ul = 18446744073709551615UL;
    long long ll = LLONG_MIN;
    unsigned long long ull = ULLONG_MAX;
    int64_t i64 = INT64_C(-9000000000);
    uint32_t u32 = 4000000000u;
    size_t sz = sizeof(double[3]);
    int n1, n2;

    printf("int: %d %i %d %d\n", 0, -1, INT_MAX, INT_MIN);
    printf("unsigned: %u %u %x %X %o\n", 0u, UINT_MAX, 0xdeadbeefu, 0xdeadbeefu, 8u);
    printf("long: %ld %lu %lx\n", l, ul, (unsigned long)LONG_MAX);
    printf("long long: %lld %llu %llx\n", ll, ull, (unsigned long long)ll);
    printf("promoted: %f %c %d %d %d %u\n", f, c, sc, uc, s, us);
    printf("float arg with %%e: %e, %%g: %g\n", f, f);
    printf("inttypes: %" PRId64 " %" PRIu32 " %" PRIx64 "\n", i64, u32, (uint64_t)i64);
    printf("size_t: %lu\n", (unsigned long)sz);
    printf("widths: [%5d] [%-5d] [%05d] [%+d] [% d] [%+d]\n", 42, 42, 42, 42, 42, -42);
    printf("precision: [%.3d] [%8.3d] [%.0d]\n", 7, -7, 0);
    printf("hex: [%#x] [%#o] [%08x] [%-8x|] [%#010x]\n", 255u, 8u, 0xabcu, 0xabcu, 0xabcu);
    printf("star: [%*d] [%-*d] [%.*f] [%*.*f]\n", 6, 12, 6, 12, 2, 3.14159, 9, 3, 2.71828);
    printf("chars: [%c] [%3c] [%-3c]\n", 'a', 'b', 'c');
    printf("strings: [%s] [%8s] [%-8s] [%.2s]\n", "abc", "abc", "abc", "abc");
    printf("floats: [%f] [%.1f] [%10.4f] [%-10.2f] [%+.3f] [%08.2f]\n", 3.14159, 3.14159, -3.14159, 3.14159, 3.14159, -3.14159);
    printf("exp: [%e] [%.2e] [%E] [%12.3e]\n", 123456.789, 0.000123, 1e100, -6.02e23);
    printf("g: [%g] [%g] [%g] [%g] [%.3g] [%#g]\n", 100000.0, 1000000.0, 1e-4, 1e-5, 3.14159, 1.0);
    printf("special: [%f] [%f] [%g] [%e]\n", 1e308 * 10, -1e308 * 10, 1e308 * 10, 0.0);
    printf("neg zero: [%g] [%f]\n", -0.0, -0.0);
    printf("big double: %.0f\n", 1e22);
    printf("mixed: %d %s %c %f %ld %u %lld\n", 1, "two", '3', 4.0, 5L, 6u, 7LL);
    /* many arguments, so some are passed on the stack */
    printf("many: %d %d %d %d %d %d %d %d %d %d %f %f %f %f %f %f %f %f %f %f\n",
           1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5);
    printf("interleaved: %d %f %d %f %lld %f %c %f %s %f\n", 1, 0.5, 2, 1.5, 3LL, f, 'x', (double)f * 2, "s", 9.25);
    /* return value and %n are not compared via output, but printf's return value is */
    n1 = printf("count me\n");
    n2 = printf("%s=%d\n", "x", 12345);
    printf("returned %d and %d\n", n1, n2);
    /* snprintf truncation */
    {
        char buf[8];
        int r = snprintf(buf, sizeof buf, "%s", long_text);
        printf("snprintf: [%s] %d\n", buf, r);
    }
    puts("puts adds a newline");
    putchar('!');
    putchar('\n');
    fputs("fputs to stdout\n", stdout);
    fprintf(stdout, "fprintf %d\n", 99);
    return 0;
}
