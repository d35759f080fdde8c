/* Unsigned arithmetic wraps modulo 2^N for every width. */
#include <stdio.h>
#include <limits.h>
#include <stdint.h>

int main(void)
{
    unsigned int u = 0xffffffffu;
    unsigned char uc = 255;
    unsigned short us = 0;
    unsigned long ul = 0;
    unsigned long long ull = ULLONG_MAX;
    uint32_t x;
    int k;

    printf("0xffffffffu+1 = %u\n", u + 1);
    printf("0u-1 = %u\n", 0u - 1);
    printf("u*u = %u\n", u * u);
    uc++;
    printf("uc 255+1 = %u\n", (unsigned)uc);
    us--;
    printf("us 0-1 = %u\n", (unsigned)us);
    ul--;
    printf("ul 0-1 = %lu\n", ul);
    ull += 2;
    printf("ULLONG_MAX+2 = %llu\n", ull);
    printf("(unsigned char)-1 = %u\n", (unsigned)(unsigned char)-1);
    printf("(unsigned short)-1 = %u\n", (unsigned)(unsigned short)-1);
    printf("(unsigned)-1 = %u\n", (unsigned)-1);
    printf("(unsigned char)300 = %u\n", (unsigned)(unsigned char)300);
    printf("(uint16_t)70000 = %u\n", (unsigned)(uint16_t)70000);
    /* a simple LCG in 32 bits */
    x = 12345u;
    for (k = 0; k < 10; k++) {
        x = x * 1103515245u + 12345u;
        printf("lcg %d: %u\n", k, x);
    }
    /* FNV-1a hash of a string: multiplication wraps */
    {
        const char *s = "hello, wrapping world";
        uint32_t h = 2166136261u;
        while (*s) {
            h ^= (unsigned char)*s++;
            h *= 16777619u;
        }
        printf("fnv1a = %u (0x%08x)\n", h, h);
    }
    /* 64-bit wrap */
    {
        uint64_t a = UINT64_C(0xfedcba9876543210), b = UINT64_C(0x123456789abcdef0);
        printf("a*b = %llu\n", (unsigned long long)(a * b));
        printf("a+b = %llx\n", (unsigned long long)(a + b));
        printf("b-a = %llx\n", (unsigned long long)(b - a));
    }
    /* loop counting down with unsigned */
    {
        unsigned n = 5, cnt = 0;
        while (n-- > 0)
            cnt++;
        printf("cnt=%u n=%u\n", cnt, n);
    }
    return 0;
}
