/* switch: fallthrough, default in the middle, nested switches, no match. */
#include <stdio.h>

static int classify(int v)
{
    int r = 0;
    switch (v) {
    case 0:
        r += 1;
        /* fall through */
    case 1:
        r += 10;
        /* fall through */
    case 2:
        r += 100;
        break;
    default:
        r = -1;
        /* fall through */
    case 7:
        r += 1000;
        break;
    case 8:
    case 9:
        r = 89;
        break;
    case -3:
        return -300;
    }
    return r;
}

static const char *kind(char c)
{
    switch (c) {
    case 'a': case 'e': case 'i': case 'o': case 'u':
        return "vowel";
    case ' ':
        return "space";
    default:
        if (c >= '0' && c <= '9')
            return "digit";
        return "other";
    }
}

int main(void)
{
    int v, i, j, count = 0;
    const char *s = "hi 42 you";

    for (v = -4; v <= 10; v++)
        printf("classify(%d) = %d\n", v, classify(v));
    for (i = 0; s[i]; i++)
        printf("'%c' %s\n", s[i], kind(s[i]));
    /* nested switch with break inside inner only */
    for (i = 0; i < 3; i++) {
        for (j = 0; j < 3; j++) {
            switch (i) {
            case 0:
                switch (j) {
                case 1: count += 5; break;
                default: count += 1;
                }
                count += 100;
                break;
            case 1:
                if (j == 2)
                    continue; /* continues the for loop */
                count += 1000;
                break;
            default:
                break;
            }
            count += 3;
        }
    }
    printf("count = %d\n", count);
    /* switch with no matching case and no default */
    v = 0;
    switch (v + 42) {
    case 1: v = 1; break;
    }
    printf("v = %d\n", v);
    /* switch on a long long and on unsigned */
    {
        long long big = 10000000000LL;
        unsigned u = 0xffffffffu;
        switch (big) {
        case 10000000000LL: printf("big matched\n"); break;
        default: printf("big no\n");
        }
        switch (u) {
        case 0xffffffffu: printf("u matched\n"); break;
        default: printf("u no\n");
        }
    }
    /* Duff's-device-like loop without the interleaving */
    {
        int n = 11, k = 0, iters = (n + 3) / 4;
        switch (n % 4) {
        case 0: do { k++;
        /* fall through */
        case 3: k++;
        /* fall through */
        case 2: k++;
        /* fall through */
        case 1: k++;
                } while (--iters > 0);
        }
        printf("duff k = %d\n", k);
    }
    return 0;
}
