/* Comma operator and conditional operator: sequencing, types, lvalue-ish uses. */
#include <stdio.h>

static int trace_n;
static int trace(int v) { trace_n = trace_n * 10 + v; return v; }

int main(void)
{
    int a, b, c, i, j;
    double d;
    int x = 5, y = 9;
    int *p;
    const char *msg;

    a = (b = 3, c = b + 4, c * 2);
    printf("a=%d b=%d c=%d\n", a, b, c);
    trace_n = 0;
    a = (trace(1), trace(2), trace(3));
    printf("a=%d order=%d\n", a, trace_n);
    for (i = 0, j = 10; i < j; i += 3, j -= 2)
        printf("i=%d j=%d\n", i, j);
    /* ternary picks one side only */
    trace_n = 0;
    a = 1 ? trace(4) : trace(5);
    b = 0 ? trace(6) : trace(7);
    printf("a=%d b=%d trace=%d\n", a, b, trace_n);
    /* nested ternary: classify */
    for (i = -2; i <= 2; i++) {
        msg = i < 0 ? "neg" : i == 0 ? "zero" : "pos";
        printf("%d is %s\n", i, msg);
    }
    /* int/double mixing: the result type is double */
    d = 1 ? 1 : 2.5;
    printf("d = %f, sizeof = %d\n", d, (int)sizeof(1 ? 1 : 2.5));
    printf("%f\n", 0 ? 1 : 2.5);
    /* conditional giving a pointer, then assign through it */
    p = x > y ? &x : &y;
    *p = 100;
    printf("x=%d y=%d\n", x, y);
    *(x < y ? &x : &y) += 1;
    printf("x=%d y=%d\n", x, y);
    /* ternary with void expressions */
    x > 0 ? (void)printf("x positive\n") : (void)printf("x not positive\n");
    /* comma in a while condition */
    i = 0;
    while (j = i * i, j < 30)
        i++;
    printf("first square >= 30: %d (%d)\n", j, i);
    /* ternary as a function argument and array index */
    {
        int arr[2] = { 11, 22 };
        printf("arr[%d] = %d\n", i & 1, arr[i & 1 ? 1 : 0]);
    }
    /* ternary with null pointer and string */
    msg = 0;
    printf("%s\n", msg ? msg : "(null)");
    /* max of three */
    a = 4; b = 17; c = 9;
    printf("max3 = %d\n", a > b ? (a > c ? a : c) : (b > c ? b : c));
    return 0;
}
