/* Function pointers: tables, callbacks, returning them, typedefs, NULL checks. */
#include <stdio.h>

typedef int (*binop)(int, int);

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }
static int maxi(int a, int b) { return a > b ? a : b; }

static binop pick(char c)
{
    switch (c) {
    case '+': return add;
    case '-': return sub;
    case '*': return mul;
    default: return NULL;
    }
}

static int fold(const int *v, int n, int init, int (*f)(int, int))
{
    int i, acc = init;
    for (i = 0; i < n; i++)
        acc = f(acc, v[i]);
    return acc;
}

static double apply_twice(double (*g)(double), double x) { return g(g(x)); }
static double half(double x) { return x / 2; }
static double sq(double x) { return x * x; }

struct op { const char *name; binop fn; };

/* function returning a pointer to function without a typedef */
static int (*get_max(void))(int, int) { return maxi; }

static void visit(int n, void (*cb)(int, void *), void *ctx)
{
    int i;
    for (i = 0; i < n; i++)
        cb(i, ctx);
}

static void accumulate(int i, void *ctx) { *(int *)ctx += i * i; }

int main(void)
{
    int v[] = { 3, 1, 4, 1, 5, 9, 2, 6 };
    struct op ops[] = { { "add", add }, { "sub", sub }, { "mul", mul }, { "max", maxi } };
    binop table[4] = { add, sub, mul, maxi };
    const char *expr = "+-*/";
    int i, ctx = 0;
    binop f;

    for (i = 0; i < 4; i++)
        printf("%s(7,3) = %d, fold = %d\n", ops[i].name, ops[i].fn(7, 3), fold(v, 8, 1, ops[i].fn));
    for (i = 0; i < 4; i++)
        printf("table[%d](10, 4) = %d via (*f) = %d\n", i, table[i](10, 4), (*table[i])(10, 4));
    for (i = 0; expr[i]; i++) {
        f = pick(expr[i]);
        if (f)
            printf("'%c' -> %d\n", expr[i], f(12, 5));
        else
            printf("'%c' -> no function\n", expr[i]);
    }
    printf("get_max()(2, 8) = %d\n", get_max()(2, 8));
    printf("apply_twice(half, 10) = %g\n", apply_twice(half, 10));
    printf("apply_twice(sq, 3) = %g\n", apply_twice(sq, 3));
    visit(5, accumulate, &ctx);
    printf("ctx = %d\n", ctx);
    printf("f == add: %d, pick('+') == add: %d, add != sub: %d\n", f == add, pick('+') == add, add != sub);
    /* function designator and &function are the same */
    f = &mul;
    printf("&mul(6,7) = %d\n", f(6, 7));
    return 0;
}
