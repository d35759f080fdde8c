/* Every compound assignment operator on several types, incl. via pointers and array elements. */
#include <stdio.h>

static int calls;
static int idx(int i) { calls++; return i; }

int main(void)
{
    int i = 100;
    unsigned u = 0xf0f0f0f0u;
    long long ll = -1000000000000LL;
    double d = 10.0;
    float f = 1.5f;
    signed char c = 10;
    int j;
    unsigned char uc = 250;
    int arr[4] = { 1, 2, 3, 4 };
    double *pd = &d;
    int *pa = arr;

    i += 5;  printf("+= %d\n", i);
    i -= 20; printf("-= %d\n", i);
    i *= -3; printf("*= %d\n", i);
    i /= 7;  printf("/= %d\n", i);
    i %= 13; printf("%%= %d\n", i);
    i = -i;  i <<= 4; printf("<<= %d\n", i);
    i = -i;  i >>= 2; printf(">>= (negative) %d\n", i);
    i = -i;
    i >>= 2; printf(">>= %d\n", i);
    i &= 0x7f; printf("&= %d\n", i);
    i |= 0x100; printf("|= %d\n", i);
    i ^= 0x1ff; printf("^= %d\n", i);

    u >>= 4;  printf("u >>= %x\n", u);
    u <<= 8;  printf("u <<= %x\n", u);
    u ^= ~0u; printf("u ^= %x\n", u);
    u %= 1000u; printf("u %%= %u\n", u);

    ll *= 3; printf("ll *= %lld\n", ll);
    ll /= -7; printf("ll /= %lld\n", ll);
    ll %= 1000; printf("ll %%= %lld\n", ll);

    d *= 2.5;  printf("d *= %f\n", d);
    *pd /= 4;  printf("*pd /= %f\n", d);
    *pd -= 0.25; printf("*pd -= %f\n", d);
    f += 0.25f; printf("f += %f\n", f);
    f *= f;     printf("f *= %f\n", f);

    /* int compound-assigned with a double: computed in double, truncated */
    i = 7;
    i *= 1.5; printf("int *= 1.5 -> %d\n", i);
    i += 0.9; printf("int += 0.9 -> %d\n", i);
    i -= 0.5; printf("int -= 0.5 -> %d\n", i);

    /* narrow types: computed in int, stored truncated */
    c += 120; printf("schar += 120 -> %d\n", c);
    uc += 10; printf("uchar += 10 -> %d\n", uc);
    uc -= 20; printf("uchar -= 20 -> %d\n", uc);
    uc *= 3;  printf("uchar *= 3 -> %d\n", uc);

    /* lvalue evaluated once */
    calls = 0;
    arr[idx(2)] += 10;
    arr[idx(1)] <<= 3;
    printf("arr = %d %d %d %d, calls = %d\n", arr[0], arr[1], arr[2], arr[3], calls);
    /* pointer compound assignment */
    pa += 3; printf("*pa = %d\n", *pa);
    pa -= 2; printf("*pa = %d\n", *pa);
    *pa++ *= 2;
    printf("arr[1] = %d, *pa = %d\n", arr[1], *pa);
    /* value of an assignment expression */
    i = 5;
    j = (i += 3) * 2;
    printf("(i += 3) * 2 = %d, i = %d\n", j, i);
    return 0;
}
