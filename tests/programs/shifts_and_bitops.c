/* Shifts (signed/unsigned, arithmetic right shift of negatives) and bitwise operators. */
#include <stdio.h>
#include <stdint.h>

static int popcount32(uint32_t x)
{
    int n = 0;
    while (x) {
        x &= x - 1;
        n++;
    }
    return n;
}

static uint32_t reverse_bits(uint32_t x)
{
    uint32_t r = 0;
    int i;
    for (i = 0; i < 32; i++) {
        r = (r << 1) | (x & 1u);
        x >>= 1;
    }
    return r;
}

static uint32_t rotl(uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }

int main(void)
{
    int i, s = -16;
    unsigned u = 0x80000000u;
    long long ll = -1;
    uint64_t big = 1;
    uint8_t b = 0xa5;

    printf("-16 >> 2 = %d\n", s >> 2);       /* arithmetic on gcc and everywhere that matters */
    printf("-1 >> 31 = %d\n", -1 >> 31);
    printf("0x80000000u >> 31 = %u\n", u >> 31);
    printf("(int)0x80000000u >> 4 = %d\n", (int)(u >> 4));
    printf("1 << 30 = %d\n", 1 << 30);
    printf("1u << 31 = %u\n", 1u << 31);
    printf("1LL << 40 = %lld\n", 1LL << 40);
    printf("ll >> 63 = %lld\n", ll >> 63);
    printf("big << 63 = %llu\n", (unsigned long long)(big << 63));
    printf("big << 63 >> 62 = %llu\n", (unsigned long long)((big << 63) >> 62));
    printf("b << 4 = %d (promoted)\n", b << 4);
    printf("(uint8_t)(b << 4) = %d\n", (uint8_t)(b << 4));
    printf("~b = %d, (uint8_t)~b = %d\n", ~b, (uint8_t)~b);
    printf("0xf0 & 0x3c = %#x, | = %#x, ^ = %#x\n", 0xf0 & 0x3c, 0xf0 | 0x3c, 0xf0 ^ 0x3c);
    printf("~0 = %d, ~0u = %u\n", ~0, ~0u);
    printf("-5 & 3 = %d, -5 | 3 = %d, -5 ^ 3 = %d\n", -5 & 3, -5 | 3, -5 ^ 3);
    for (i = 0; i < 32; i += 5)
        printf("shift var: 1u<<%d = %u, 0xdeadbeefu>>%d = %x\n", i, 1u << i, i, 0xdeadbeefu >> i);
    printf("popcount(0xdeadbeef) = %d\n", popcount32(0xdeadbeefu));
    printf("popcount(0) = %d, popcount(~0u) = %d\n", popcount32(0), popcount32(~0u));
    printf("reverse(1) = %x, reverse(0x12345678) = %x\n", reverse_bits(1), reverse_bits(0x12345678u));
    printf("rotl(0x80000001, 1) = %x, rotl(0x12345678, 8) = %x\n", rotl(0x80000001u, 1), rotl(0x12345678u, 8));
    /* isolate lowest set bit, clear it, test bits */
    {
        unsigned x = 0x58u;
        printf("x & -x = %#x, x & (x-1) = %#x, bit3 = %d, bit2 = %d\n",
               x & (0u - x), x & (x - 1), (x >> 3) & 1, !!(x & 4u));
    }
    /* sign extension after shifting a char */
    {
        signed char sc = -128;
        printf("sc >> 1 = %d, (unsigned char)sc >> 1 = %d\n", sc >> 1, (unsigned char)sc >> 1);
    }
    /* precedence: shift binds tighter than comparison, & looser than == */
    printf("1 << 2 + 1 = %d, 6 & 3 == 3 = %d, (6 & 3) == 2 = %d\n", 1 << (2 + 1), 6 & (3 == 3), (6 & 3) == 2);
    return 0;
}
