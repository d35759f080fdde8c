/* String literals: escapes, concatenation, sizeof, embedded NUL, char constants. */
#include <stdio.h>
#include <string.h>

int main(void)
{
    const char *s = "tab\there\nnewline";
    const char cat[] = "con" "cat" "enated";
    const char esc[] = "\a\b\f\n\r\t\v\\\'\"\?";
    const char oct[] = "\101\102\103\0\104";
    const char hex[] = "\x41\x62\x7a";
    char buf[32];
    const char *p;
    int i;

    printf("%s\n", s);
    printf("cat = %s, sizeof = %d, strlen = %d\n", cat, (int)sizeof cat, (int)strlen(cat));
    printf("esc codes:");
    for (i = 0; i < (int)sizeof esc; i++)
        printf(" %d", esc[i]);
    printf("\n");
    printf("oct = %s, sizeof = %d, after NUL = %c\n", oct, (int)sizeof oct, oct[4]);
    printf("hex = %s\n", hex);
    printf("chars: %d %d %d %d %d %d\n", 'A', '\n', '\0', '\'', '\\', '\x7f');
    printf("percent: 100%%\n");
    printf("quote: \"quoted\" and 'single'\n");
    /* indexing into a literal */
    printf("\"hello\"[1] = %c, *(\"xyz\" + 2) = %c\n", "hello"[1], *("xyz" + 2));
    printf("sizeof(\"abc\") = %d, sizeof \"\" = %d\n", (int)sizeof("abc"), (int)sizeof "");
    /* character array initialized from a literal is modifiable */
    {
        char w[] = "mutable";
        w[0] = 'M';
        w[6] = 'E';
        printf("%s\n", w);
    }
    /* exact fit: no terminating NUL stored */
    {
        char exact[3] = "abc";
        printf("exact: %c%c%c\n", exact[0], exact[1], exact[2]);
    }
    /* literal longer array: rest is zeroed */
    {
        char pad[8] = "ab";
        printf("pad:");
        for (i = 0; i < 8; i++)
            printf(" %d", pad[i]);
        printf("\n");
    }
    /* walk with pointer */
    p = "count me";
    i = 0;
    while (*p++)
        i++;
    printf("counted %d\n", i);
    /* printf field widths with strings */
    printf("[%10s][%-10s][%.3s][%5.2s]\n", "right", "left", "truncate", "ab");
    /* sprintf into a buffer */
    sprintf(buf, "%s-%d-%c", "id", 77, 'z');
    printf("buf = %s (%d)\n", buf, (int)strlen(buf));
    /* long literal split across lines */
    printf("%s\n", "line one, "
                   "line two, "
                   "line three");
    /* identical literals compare by content */
    printf("strcmp equal: %d\n", strcmp("same", "same") == 0);
    return 0;
}
