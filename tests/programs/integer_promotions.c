/* Integer promotions and the usual arithmetic conversions. */
#include <stdio.h>
#include <limits.h>

int main(void)
{
    unsigned char uc = 200, uc2 = 100;
    signed char sc = -100;
    unsigned short us = 65535;
    short s = -32768;
    int i;
    unsigned u;
    long l;

    /* char + char is done in int: no wraparound at 8 bits */
    i = uc + uc2;
    printf("uc+uc2 = %d\n", i);
    /* storing back truncates */
    uc = uc + uc2;
    printf("uc after += : %d\n", uc);
    printf("sc*2 = %d\n", sc * 2);
    printf("us+1 = %d\n", us + 1);
    printf("s-1 = %d\n", s - 1);
    /* ~ on a promoted unsigned char gives a negative int */
    uc = 0x0f;
    printf("~uc = %d\n", ~uc);
    printf("(unsigned char)~uc = %d\n", (unsigned char)~uc);
    /* int compared with unsigned: the int becomes unsigned */
    i = -1;
    u = 1;
    printf("-1 < 1u: %d\n", i < u);
    printf("-1 < (int)1u: %d\n", i < (int)u);
    /* but unsigned short promotes to int, so the comparison is signed */
    us = 1;
    printf("-1 < (unsigned short)1: %d\n", i < us);
    /* long vs unsigned int: long is 64-bit here, so unsigned fits */
    l = -1;
    printf("-1L < 1u: %d\n", l < u);
    /* mixing signed and unsigned in arithmetic */
    u = 3;
    i = -5;
    printf("i+u = %u\n", i + u);
    printf("(int)(i+u) = %d\n", (int)(i + u));
    printf("i/u = %u\n", i / u);
    /* shifts: result type is the promoted left operand */
    uc = 1;
    printf("uc<<20 = %d\n", uc << 20);
    /* char in switch and arithmetic */
    sc = 'A';
    printf("sc+1 = %c %d\n", sc + 1, sc + 1);
    /* sizeof of promoted expressions */
    printf("sizeof(uc+uc) = %d\n", (int)sizeof(uc + uc));
    printf("sizeof(+sc) = %d\n", (int)sizeof(+sc));
    printf("sizeof(u+l) = %d\n", (int)sizeof(u + l));
    printf("sizeof('a') = %d\n", (int)sizeof('a'));
    /* INT_MAX + 1u is unsigned and well defined */
    printf("INT_MAX+1u = %u\n", INT_MAX + 1u);
    printf("UINT_MAX+1u = %u\n", UINT_MAX + 1u);
    /* negative of unsigned */
    u = 5;
    printf("-u = %u\n", -u);
    /* conditional operator's common type */
    i = -1;
    printf("(1 ? i : u) > 0: %d\n", (1 ? i : u) > 0);
    return 0;
}
