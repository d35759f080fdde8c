/* Pointer arithmetic: scaling by element size, differences, comparisons, pointer to pointer, void* round trips. */
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

struct big { double d[3]; int tag; };

int main(void)
{
    int a[10];
    double d[5];
    struct big bs[4];
    char s[] = "pointer";
    int *p, *q, **pp;
    char *cp;
    ptrdiff_t diff;
    void *vp;
    int i;

    for (i = 0; i < 10; i++) a[i] = i * i;
    p = a;
    q = &a[9];
    diff = q - p;
    printf("q - p = %ld, p - q = %ld\n", (long)diff, (long)(p - q));
    printf("*(p + 3) = %d, p[4] = %d, 4[p] = %d, *(q - 1) = %d\n", *(p + 3), p[4], 4[p], *(q - 1));
    printf("p < q: %d, p == a: %d, q > a + 8: %d, q >= a + 9: %d\n", p < q, p == a, q > a + 8, q >= a + 9);
    /* byte distance depends on element size */
    printf("bytes int: %ld, double: %ld, struct: %ld\n",
           (long)((char *)(a + 3) - (char *)a), (long)((char *)(d + 3) - (char *)d), (long)((char *)(bs + 3) - (char *)bs));
    printf("struct elems apart: %ld\n", (long)(&bs[3] - &bs[1]));
    /* pointer increments in loops */
    for (p = a + 9, i = 0; p >= a + 5; p--)
        i += *p;
    printf("sum of a[5..9] = %d\n", i);
    p = a;
    i = *p++;
    i += *p++;
    i += *++p;
    printf("i = %d, p - a = %ld\n", i, (long)(p - a));
    i = ++*p;
    printf("++*p = %d, a[3] = %d\n", i, a[3]);
    i = (*p)++;
    printf("(*p)++ = %d, a[3] = %d\n", i, a[3]);
    /* one-past-the-end pointer */
    for (cp = s; cp != s + sizeof s - 1; cp++)
        ;
    printf("length by pointer = %ld\n", (long)(cp - s));
    /* pointer to pointer */
    p = &a[2];
    pp = &p;
    **pp = -4;
    *pp += 5;
    printf("a[2] = %d, *p = %d\n", a[2], *p);
    /* void* round trips and casting via uintptr_t */
    vp = &d[2];
    d[2] = 2.5;
    printf("*(double *)vp = %.1f\n", *(double *)vp);
    printf("uintptr diff = %lu\n", (unsigned long)((uintptr_t)&d[4] - (uintptr_t)&d[0]));
    printf("via char*: %ld\n", (long)((double *)((char *)vp + sizeof(double)) - d));
    /* pointer to array element of a struct member */
    bs[2].tag = 77;
    {
        struct big *bp = bs;
        bp += 2;
        printf("bp->tag = %d, (bp - 1) == &bs[1]: %d\n", bp->tag, (bp - 1) == &bs[1]);
        printf("&bp->d[2] - &bs[0].d[0] = %ld doubles\n", (long)(&bp->d[2] - &bs[0].d[0]));
    }
    /* null pointer comparisons */
    p = NULL;
    printf("p == NULL: %d, !p: %d, p == 0: %d\n", p == NULL, !p, p == 0);
    /* negative index from a middle pointer */
    p = &a[5];
    printf("p[-1] = %d, p[-5] = %d\n", p[-1], p[-5]);
    /* offsetof matches pointer difference */
    printf("offsetof tag = %d, by ptrs = %d\n", (int)offsetof(struct big, tag), (int)((char *)&bs[0].tag - (char *)&bs[0]));
    return 0;
}
