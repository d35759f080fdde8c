/* && and || short-circuit: right operand not evaluated; results are 0/1; side effects in conditions. */
#include <stdio.h>

static int calls;
static int t(int v) { calls++; return v; }

int main(void)
{
    int i, n, r;
    int *p = NULL;
    int arr[3] = { 5, 0, 7 };

    calls = 0; r = t(0) && t(1); printf("0&&1 = %d calls %d\n", r, calls);
    calls = 0; r = t(1) && t(0); printf("1&&0 = %d calls %d\n", r, calls);
    calls = 0; r = t(1) || t(0); printf("1||0 = %d calls %d\n", r, calls);
    calls = 0; r = t(0) || t(5); printf("0||5 = %d calls %d\n", r, calls);
    calls = 0; r = t(0) || t(0) || t(3) || t(4); printf("chain || = %d calls %d\n", r, calls);
    calls = 0; r = t(2) && t(3) && t(0) && t(4); printf("chain && = %d calls %d\n", r, calls);
    calls = 0; r = (t(0) && t(1)) || (t(1) && t(2)); printf("mixed = %d calls %d\n", r, calls);
    calls = 0; r = (t(1) || t(2)) && (t(0) || t(0)); printf("paren = %d calls %d\n", r, calls);
    /* results are exactly 0 or 1 */
    printf("5 && 7 = %d, 0 || -3 = %d, !5 = %d, !!5 = %d, !0 = %d\n", 5 && 7, 0 || -3, !5, !!5, !0);
    /* guarding a null dereference */
    printf("p && *p = %d\n", p && *p);
    p = &arr[2];
    printf("p && *p = %d\n", p && *p);
    /* increments in conditions */
    i = 0;
    n = 0;
    while (i < 10 && (n += i, i++ < 7))
        ;
    printf("i = %d, n = %d\n", i, n);
    i = 0;
    if (i++ || i++)
        printf("taken, i = %d\n", i);
    i = 0;
    if (++i || ++i)
        printf("taken, i = %d\n", i);
    /* short circuit with floating and pointer operands */
    {
        double z = 0.0, nz = 0.5;
        printf("z || nz = %d, z && nz = %d\n", z || nz, z && nz);
    }
    /* the ternary inside a short-circuit */
    calls = 0;
    r = t(0) || (t(1) ? t(0) : t(9));
    printf("ternary in || = %d calls %d\n", r, calls);
    /* loop that stops on first zero via short-circuit */
    calls = 0;
    for (i = 0; i < 3 && t(arr[i]); i++)
        ;
    printf("stopped at %d calls %d\n", i, calls);
    /* relational results used in arithmetic */
    n = (3 > 2) + (2 > 3) + (1 == 1) * 10 + (1 != 1) * 100;
    printf("n = %d\n", n);
    return 0;
}
