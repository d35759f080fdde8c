/* Hand-written string routines: reverse in place, palindromes, word counting, rot13, int to string, trimming. */
#include <stdio.h>
#include <string.h>
#include <ctype.h>

static void reverse(char *s)
{
    size_t i, n = strlen(s);
    for (i = 0; i < n / 2; i++) {
        char t = s[i];
        s[i] = s[n - 1 - i];
        s[n - 1 - i] = t;
    }
}

static int is_palindrome(const char *s)
{
    const char *e = s + strlen(s);
    while (s < e) {
        while (s < e && !isalnum((unsigned char)*s)) s++;
        while (s < e && !isalnum((unsigned char)e[-1])) e--;
        if (s < e && tolower((unsigned char)*s) != tolower((unsigned char)e[-1]))
            return 0;
        s++;
        e--;
    }
    return 1;
}

static int count_words(const char *s)
{
    int n = 0, in = 0;
    for (; *s; s++) {
        if (isspace((unsigned char)*s)) in = 0;
        else if (!in) { in = 1; n++; }
    }
    return n;
}

static void rot13(char *s)
{
    for (; *s; s++) {
        if (*s >= 'a' && *s <= 'z') *s = (char)('a' + (*s - 'a' + 13) % 26);
        else if (*s >= 'A' && *s <= 'Z') *s = (char)('A' + (*s - 'A' + 13) % 26);
    }
}

static char *itoa_base(long v, int base, char *buf)
{
    char tmp[70];
    int n = 0, neg = v < 0;
    unsigned long u = neg ? 0UL - (unsigned long)v : (unsigned long)v;
    char *p = buf;
    do {
        tmp[n++] = "0123456789abcdefghijklmnopqrstuvwxyz"[u % base];
        u /= base;
    } while (u);
    if (neg) *p++ = '-';
    while (n) *p++ = tmp[--n];
    *p = '\0';
    return buf;
}

static char *trim(char *s)
{
    char *e;
    while (isspace((unsigned char)*s)) s++;
    e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) e--;
    *e = '\0';
    return s;
}

int main(void)
{
    char s1[] = "stressed", s2[] = "Hello, World", s3[] = "   padded text \t\n";
    const char *pals[] = { "A man, a plan, a canal: Panama", "racecar", "not one", "", "ab" };
    char buf[80];
    int i;

    reverse(s1);
    printf("reverse: %s\n", s1);
    for (i = 0; i < 5; i++)
        printf("palindrome(\"%s\") = %d\n", pals[i], is_palindrome(pals[i]));
    printf("words: %d %d %d\n", count_words("  one two   three "), count_words(""), count_words("x"));
    rot13(s2);
    printf("rot13: %s\n", s2);
    rot13(s2);
    printf("rot13 twice: %s\n", s2);
    printf("itoa: %s ", itoa_base(0, 10, buf));
    printf("%s ", itoa_base(-12345, 10, buf));
    printf("%s ", itoa_base(255, 16, buf));
    printf("%s ", itoa_base(255, 2, buf));
    printf("%s\n", itoa_base(-9223372036854775807L - 1, 10, buf));
    printf("trim: [%s]\n", trim(s3));
    return 0;
}
