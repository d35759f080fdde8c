/* ctype.h classification and conversion; strtol/strtoul/strtod/atoi/sscanf number parsing. */
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

int main(void)
{
    const char *sample = "Hello, World! 123 \t_x\n";
    const char *p;
    int alpha = 0, digit = 0, space = 0, punct = 0, upper = 0, lower = 0, alnum = 0, xdig = 0;
    char buf[64];
    int i;
    char *end;

    for (p = sample; *p; p++) {
        unsigned char c = (unsigned char)*p;
        alpha += isalpha(c) != 0;
        digit += isdigit(c) != 0;
        space += isspace(c) != 0;
        punct += ispunct(c) != 0;
        upper += isupper(c) != 0;
        lower += islower(c) != 0;
        alnum += isalnum(c) != 0;
        xdig += isxdigit(c) != 0;
    }
    printf("alpha %d digit %d space %d punct %d upper %d lower %d alnum %d xdigit %d\n",
           alpha, digit, space, punct, upper, lower, alnum, xdig);
    for (i = 0; sample[i]; i++)
        buf[i] = (char)toupper((unsigned char)sample[i]);
    buf[i] = '\0';
    printf("upper: %s", buf);
    printf("tolower('Q') = %c, toupper('7') = %c, isprint('\\t') = %d, iscntrl('\\n') = %d\n",
           tolower('Q'), toupper('7'), isprint('\t') != 0, iscntrl('\n') != 0);

    printf("strtol: %ld %ld %ld %ld\n", strtol("  -1234xyz", &end, 10), strtol("ff", NULL, 16), strtol("0x1A", NULL, 0), strtol("0755", NULL, 0));
    strtol("  -1234xyz", &end, 10);
    printf("rest after number: [%s]\n", end);
    printf("strtol base 2: %ld, base 36: %ld\n", strtol("101101", NULL, 2), strtol("zz", NULL, 36));
    printf("strtoul: %lu, strtoll: %lld\n", strtoul("4294967295", NULL, 10), strtoll("-9223372036854775807", NULL, 10));
    printf("atoi: %d %d %d, atol: %ld\n", atoi("42"), atoi("  -17abc"), atoi("abc"), atol("1234567890"));
    printf("strtod: %g %g %g %.3f\n", strtod("3.5e2", NULL), strtod("-0.125", NULL), strtod("1e-3", NULL), strtod("  2.71828rest", &end));
    printf("after strtod: [%s]\n", end);
    printf("atof: %.4f\n", atof("6.0625"));
    {
        int a, b, n;
        double d;
        char word[16];
        n = sscanf("12 -7 3.25 token", "%d %d %lf %15s", &a, &b, &d, word);
        printf("sscanf read %d: %d %d %.2f %s\n", n, a, b, d, word);
        n = sscanf("key=99;", "key=%d;", &a);
        printf("sscanf pattern read %d: %d\n", n, a);
        n = sscanf("abc", "%d", &a);
        printf("sscanf failure read %d\n", n);
    }
    /* hand-written parser using ctype */
    {
        const char *expr = "12+345-6+78";
        long total = 0, cur = 0;
        int sign = 1;
        for (p = expr;; p++) {
            if (isdigit((unsigned char)*p)) {
                cur = cur * 10 + (*p - '0');
            } else {
                total += sign * cur;
                cur = 0;
                if (*p == '-') sign = -1;
                else if (*p == '+') sign = 1;
                else break;
            }
        }
        printf("%s = %ld\n", expr, total);
    }
    return 0;
}
