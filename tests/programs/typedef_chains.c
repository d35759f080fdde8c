/* typedefs: chains, pointer/array/function typedefs, shadowing by local names, struct tags. */
#include <stdio.h>

typedef int myint;
typedef myint myint2;
typedef myint2 *intptr;
typedef intptr intptr_arr[3];
typedef unsigned long long u64;
typedef u64 counter_t;
typedef double vec3[3];
typedef vec3 mat3[3];
typedef int (*cmp_fn)(const void *, const void *);
typedef struct node { int val; struct node *next; } node_t, *node_ptr;
typedef const char *cstr;
typedef struct { float x, y; } anon_pair;

static myint2 twice(myint x) { return 2 * x; }
static void scale(vec3 v, double s) { int i; for (i = 0; i < 3; i++) v[i] *= s; }
static double trace(mat3 m) { return m[0][0] + m[1][1] + m[2][2]; }
static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

int main(void)
{
    myint a = 5;
    myint2 b = twice(a);
    intptr p = &b;
    intptr_arr ps = { &a, &b, 0 };
    counter_t big = 1;
    vec3 v = { 1, 2, 3 };
    mat3 m = { { 1, 0, 0 }, { 0, 2, 0 }, { 0, 0, 3 } };
    cmp_fn f = cmp_int;
    node_t n2 = { 2, 0 }, n1 = { 1, &n2 };
    node_ptr it;
    cstr names[] = { "x", "yy", "zzz" };
    anon_pair pr = { 1.5f, -2.5f };
    int i;

    printf("a=%d b=%d *p=%d *ps[0]=%d *ps[1]=%d ps[2] null=%d\n", a, b, *p, *ps[0], *ps[1], ps[2] == 0);
    for (i = 0; i < 63; i++)
        big *= 2;
    printf("big = %llu sizeof(counter_t) = %d\n", big, (int)sizeof(counter_t));
    scale(v, 1.5);
    printf("v = %.2f %.2f %.2f, sizeof(vec3) = %d, sizeof(mat3) = %d\n", v[0], v[1], v[2], (int)sizeof(vec3), (int)sizeof(mat3));
    printf("trace = %.1f\n", trace(m));
    printf("f(&a,&b) < 0: %d\n", f(&a, &b) < 0);
    for (it = &n1; it; it = it->next)
        printf("node %d\n", it->val);
    for (i = 0; i < 3; i++)
        printf("%s ", names[i]);
    printf("\n");
    printf("pair = %.1f %.1f\n", pr.x, pr.y);
    /* local name shadowing a typedef name */
    {
        int myint = 7;
        printf("shadowed myint = %d\n", myint);
    }
    {
        typedef short myint;   /* local typedef redefinition */
        myint s = 1000;
        printf("local typedef size %d value %d\n", (int)sizeof(myint), s);
    }
    /* cast through typedef */
    printf("(myint2)3.9 = %d, (u64)-1 = %llu\n", (myint2)3.9, (u64)-1);
    return 0;
}
