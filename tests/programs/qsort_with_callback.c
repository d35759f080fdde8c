/* qsort and bsearch with comparison callbacks over ints, doubles, strings and structs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct person { const char *name; int age; };

static int cmp_int_asc(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}
static int cmp_int_desc(const void *a, const void *b) { return cmp_int_asc(b, a); }
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y ? 1 : 0;
}
static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}
static int cmp_person(const void *a, const void *b)
{
    const struct person *p = a, *q = b;
    if (p->age != q->age)
        return p->age - q->age;
    return strcmp(p->name, q->name);
}

int main(void)
{
    int v[] = { 42, -7, 0, 2147483647, -2147483647 - 1, 13, 13, 5, -1, 100 };
    double d[] = { 3.5, -0.25, 1e10, -1e10, 0.0, 2.0 };
    const char *words[] = { "pear", "apple", "fig", "banana", "Apple", "cherry", "" };
    struct person people[] = { { "eve", 30 }, { "bob", 25 }, { "amy", 30 }, { "dan", 19 }, { "cat", 25 } };
    int n = sizeof v / sizeof v[0], i, key, *found;

    qsort(v, n, sizeof v[0], cmp_int_asc);
    printf("asc:");
    for (i = 0; i < n; i++) printf(" %d", v[i]);
    printf("\n");
    for (key = -8; key <= 14; key += 7) {
        found = bsearch(&key, v, n, sizeof v[0], cmp_int_asc);
        printf("bsearch %d: %s", key, found ? "found" : "absent");
        if (found) printf(" at %d", (int)(found - v));
        printf("\n");
    }
    qsort(v, n, sizeof v[0], cmp_int_desc);
    printf("desc:");
    for (i = 0; i < n; i++) printf(" %d", v[i]);
    printf("\n");
    qsort(d, 6, sizeof d[0], cmp_double);
    printf("doubles:");
    for (i = 0; i < 6; i++) printf(" %g", d[i]);
    printf("\n");
    qsort(words, 7, sizeof words[0], cmp_str);
    printf("words:");
    for (i = 0; i < 7; i++) printf(" [%s]", words[i]);
    printf("\n");
    qsort(people, 5, sizeof people[0], cmp_person);
    for (i = 0; i < 5; i++) printf("%s %d\n", people[i].name, people[i].age);
    /* sorting a sub-range and a single element */
    {
        int w[] = { 9, 8, 7, 6, 5, 4, 3 };
        qsort(w + 2, 3, sizeof w[0], cmp_int_asc);
        qsort(w, 1, sizeof w[0], cmp_int_asc);
        qsort(w, 0, sizeof w[0], cmp_int_asc);
        printf("partial:");
        for (i = 0; i < 7; i++) printf(" %d", w[i]);
        printf("\n");
    }
    return 0;
}
