/* const and volatile: const data and pointers, volatile loop counters and accesses, restrict. */
#include <stdio.h>

static const int table[5] = { 2, 3, 5, 7, 11 };
static const char *const names[] = { "alpha", "beta" };

static int sum(const int *restrict a, int n)
{
    int i, s = 0;
    for (i = 0; i < n; i++)
        s += a[i];
    return s;
}

static void add_to(int *restrict dst, const int *restrict src, int n)
{
    int i;
    for (i = 0; i < n; i++)
        dst[i] += src[i];
}

int main(void)
{
    const int k = 10;
    int x = 5;
    const int *pc = &x;       /* pointer to const */
    int *const cp = &x;       /* const pointer */
    const int *const cpc = &k;
    volatile int v = 0;
    volatile double vd = 1.0;
    int arr[5] = { 1, 1, 1, 1, 1 };
    int i;

    printf("k = %d, *pc = %d, *cp = %d, *cpc = %d\n", k, *pc, *cp, *cpc);
    *cp = 6;                 /* allowed: x itself is not const */
    printf("x via cp = %d, *pc sees %d\n", x, *pc);
    pc = table + 2;          /* allowed: the pointer is not const */
    printf("*pc = %d\n", *pc);
    printf("sum(table) = %d, names = %s %s\n", sum(table, 5), names[0], names[1]);
    for (i = 0; i < 1000; i++)
        v++;
    printf("volatile counter = %d\n", v);
    for (i = 0; i < 10; i++)
        vd = vd * 1.5;
    printf("volatile double = %.4f\n", vd);
    add_to(arr, table, 5);
    printf("arr = %d %d %d %d %d\n", arr[0], arr[1], arr[2], arr[3], arr[4]);
    /* casting away const on non-const storage is fine */
    {
        const int *ro = arr;
        int *rw = (int *)ro;
        rw[0] = 100;
        printf("arr[0] = %d\n", arr[0]);
    }
    /* const struct and a struct with const members */
    {
        struct pt { int x, y; };
        const struct pt origin = { 1, 2 };
        struct labeled { const char *label; const int id; } l = { "lab", 77 };
        printf("origin %d %d, labeled %s %d\n", origin.x, origin.y, l.label, l.id);
    }
    /* volatile pointer and pointer to volatile */
    {
        volatile int cell = 3;
        volatile int *pv = &cell;
        int *volatile vp = &x;
        *pv += 4;
        *vp += 1;
        printf("cell = %d, x = %d\n", cell, x);
    }
    return 0;
}
