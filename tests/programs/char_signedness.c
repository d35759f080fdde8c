/* char conversions: signed char, unsigned char, plain char (signed on the x86-64 ABI). */
#include <stdio.h>
#include <limits.h>
#include <string.h>

int main(void)
{
    char c = (char)200;
    signed char sc = (signed char)200;
    unsigned char uc = (unsigned char)-1;
    unsigned char bytes[] = { 0, 1, 127, 128, 200, 255 };
    const char *s = "caf\xe9";
    int i, sum;

    printf("CHAR_MIN = %d, CHAR_MAX = %d, plain char is signed: %d\n", CHAR_MIN, CHAR_MAX, CHAR_MIN < 0);
    printf("(char)200 = %d\n", c);
    printf("(signed char)200 = %d\n", sc);
    printf("(unsigned char)-1 = %d\n", uc);
    printf("SCHAR_MIN = %d, SCHAR_MAX = %d, UCHAR_MAX = %d\n", SCHAR_MIN, SCHAR_MAX, UCHAR_MAX);
    for (i = 0; i < 6; i++)
        printf("byte %d as signed char %d, as int %d\n", bytes[i], (signed char)bytes[i], (int)bytes[i]);
    /* summing string bytes: as signed char vs unsigned char */
    sum = 0;
    for (i = 0; s[i]; i++)
        sum += (signed char)s[i];
    printf("signed sum = %d\n", sum);
    sum = 0;
    for (i = 0; s[i]; i++)
        sum += (unsigned char)s[i];
    printf("unsigned sum = %d\n", sum);
    /* comparisons involving chars */
    sc = -1;
    uc = 255;
    printf("sc == uc: %d, (unsigned char)sc == uc: %d\n", sc == uc, (unsigned char)sc == uc);
    printf("sc < 0: %d, uc > 0: %d\n", sc < 0, uc > 0);
    /* memcmp compares bytes as unsigned char */
    {
        char a[1] = { (char)0x80 }, b[1] = { 0x01 };
        printf("memcmp(0x80, 0x01) > 0: %d\n", memcmp(a, b, 1) > 0);
        printf("strcmp(\"\\x80\", \"\\x01\") > 0: %d\n", strcmp("\x80", "\x01") > 0);
    }
    /* sign extension of char into larger types */
    sc = -2;
    printf("(unsigned)sc = %u, (unsigned short)sc = %u, (long long)sc = %lld\n",
           (unsigned)sc, (unsigned)(unsigned short)sc, (long long)sc);
    uc = 0xfe;
    printf("(int)uc = %d, (signed char)uc = %d\n", (int)uc, (signed char)uc);
    /* char arithmetic wraps on store */
    sc = 127;
    sc++;
    printf("127+1 stored in signed char = %d\n", sc);
    uc = 0;
    uc--;
    printf("0-1 stored in unsigned char = %d\n", uc);
    /* printing chars with %c and %x */
    printf("%c%c%c %x %x\n", 'o', 'k', '!', (unsigned char)'\xff', (unsigned)(unsigned char)-128);
    return 0;
}
