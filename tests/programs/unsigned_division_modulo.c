/* Division and modulo: signed truncation toward zero, unsigned division, mixing signedness. */
#include <stdio.h>
#include <limits.h>

int main(void)
{
    int nums[] = { 7, -7, 0, 1, -1, INT_MAX, INT_MIN + 1 };
    int dens[] = { 2, -2, 3, -3, 7 };
    unsigned u = 0xffffffffu;
    int i, j;

    for (i = 0; i < 7; i++)
        for (j = 0; j < 5; j++)
            printf("%d / %d = %d, %% = %d\n", nums[i], dens[j], nums[i] / dens[j], nums[i] % dens[j]);
    printf("INT_MIN / 2 = %d, INT_MIN %% 3 = %d\n", INT_MIN / 2, INT_MIN % 3);
    printf("-7/2 = %d, -7%%2 = %d, 7/-2 = %d, 7%%-2 = %d\n", -7 / 2, -7 % 2, 7 / -2, 7 % -2);
    printf("u/2 = %u, u%%10 = %u, u/0x10000 = %u\n", u / 2, u % 10, u / 0x10000);
    /* signed operand converted to unsigned */
    printf("-7/2u = %u, -7%%2u = %u\n", -7 / 2u, -7 % 2u);
    printf("(unsigned)-8 / 4 = %u\n", (unsigned)-8 / 4);
    /* unsigned long long */
    printf("ULLONG_MAX / 3 = %llu, %% 1000 = %llu\n", ULLONG_MAX / 3, ULLONG_MAX % 1000);
    /* unsigned char/short operands promote to int: signed division */
    {
        unsigned char a = 200;
        unsigned short b = 7;
        printf("uc/us = %d, -uc/us = %d\n", a / b, -a / b);
    }
    /* division by powers of two (a compiler shift bug would show on negatives) */
    for (i = -9; i <= 9; i += 3)
        printf("%d/4 = %d, %d%%4 = %d, %d>>2 = %d, (unsigned)%d/4 = %u\n", i, i / 4, i, i % 4, i, i >> 2, i, (unsigned)i / 4);
    /* digit extraction */
    {
        unsigned v = 4294967295u;
        char digits[16];
        int n = 0;
        while (v) {
            digits[n++] = (char)('0' + v % 10);
            v /= 10;
        }
        printf("digits reversed: ");
        for (i = 0; i < n; i++)
            putchar(digits[i]);
        putchar('\n');
    }
    /* modular arithmetic identity (a/b)*b + a%b == a */
    {
        int ok = 1;
        for (i = -50; i <= 50; i++)
            for (j = -7; j <= 7; j++)
                if (j && (i / j) * j + i % j != i)
                    ok = 0;
        printf("identity holds: %d\n", ok);
    }
    return 0;
}
