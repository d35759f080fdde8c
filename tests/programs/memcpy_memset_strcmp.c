/* string.h: memcpy, memmove (overlap), memset, memcmp, strlen, strcpy, strncpy, strcat, strcmp, strchr, strstr. */
#include <stdio.h>
#include <string.h>

struct rec { int id; double w; char tag[6]; };

int main(void)
{
    char buf[64], buf2[64];
    int a[10], b[10], i;
    struct rec r1 = { 7, 1.25, "tag" }, r2;
    const char *hay = "the quick brown fox jumps over the lazy dog";
    const char *p;

    for (i = 0; i < 10; i++) a[i] = i * 11;
    memcpy(b, a, sizeof a);
    printf("memcpy b[9] = %d, memcmp = %d\n", b[9], memcmp(a, b, sizeof a));
    memmove(a + 2, a, 5 * sizeof a[0]);     /* overlapping, forward */
    printf("memmove fwd:");
    for (i = 0; i < 10; i++) printf(" %d", a[i]);
    printf("\n");
    memmove(b, b + 3, 6 * sizeof b[0]);     /* overlapping, backward */
    printf("memmove back:");
    for (i = 0; i < 10; i++) printf(" %d", b[i]);
    printf("\n");
    memset(a, 0, sizeof a);
    memset(b, 0xff, 3 * sizeof b[0]);
    printf("memset: a[5]=%d b[0]=%d b[3]=%d\n", a[5], b[0], b[3]);
    memset(buf, 'x', 10);
    buf[10] = '\0';
    printf("memset chars: %s\n", buf);
    memcpy(&r2, &r1, sizeof r1);
    printf("struct memcpy: %d %.2f %s\n", r2.id, r2.w, r2.tag);

    strcpy(buf, "hello");
    strcat(buf, ", ");
    strcat(buf, "world");
    printf("strcat: %s len %d\n", buf, (int)strlen(buf));
    strncpy(buf2, "abcdefgh", 4);
    buf2[4] = '\0';
    printf("strncpy: %s\n", buf2);
    memset(buf2, 'z', sizeof buf2);
    strncpy(buf2, "ab", 6);    /* pads with NULs */
    printf("strncpy pad: %d %d %d %d %c\n", buf2[1], buf2[2], buf2[5], buf2[6] == 'z', buf2[6]);
    strncat(buf, "!!!???", 3);
    printf("strncat: %s\n", buf);

    printf("strcmp: %d %d %d\n", strcmp("abc", "abd") < 0, strcmp("abc", "abc") == 0, strcmp("b", "abc") > 0);
    printf("strcmp prefix: %d, strncmp: %d\n", strcmp("ab", "abc") < 0, strncmp("abcX", "abcY", 3) == 0);
    p = strchr(hay, 'q');
    printf("strchr q: %s\n", p);
    p = strrchr(hay, 'o');
    printf("strrchr o at %d\n", (int)(p - hay));
    printf("strchr missing: %d, strchr NUL: %d\n", strchr(hay, 'Q') == NULL, (int)(strchr(hay, '\0') - hay));
    p = strstr(hay, "lazy");
    printf("strstr: %s\n", p);
    printf("strstr missing: %d, strstr empty: %d\n", strstr(hay, "cat") == NULL, strstr(hay, "") == hay);
    printf("strspn: %d, strcspn: %d\n", (int)strspn("aaabbc", "ab"), (int)strcspn(hay, "xyz"));
    p = memchr(hay, 'z', strlen(hay));
    printf("memchr z at %d\n", (int)(p - hay));
    /* tokenizing by hand with strchr */
    {
        char line[] = "a,bb,,ccc";
        char *s = line, *comma;
        int field = 0;
        while ((comma = strchr(s, ',')) != NULL) {
            *comma = '\0';
            printf("field %d [%s]\n", field++, s);
            s = comma + 1;
        }
        printf("field %d [%s]\n", field, s);
    }
    return 0;
}
