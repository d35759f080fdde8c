/* Large and small structs passed and returned by value (register vs memory ABI classes), arrays inside. */
#include <stdio.h>

struct tiny { char c; };
struct two_ints { int a, b; };
struct int_double { int i; double d; };
struct two_doubles { double x, y; };
struct three_longs { long a, b, c; };
struct floats4 { float f[4]; };
struct big { int data[32]; double scale; char tag[12]; };

static struct tiny mk_tiny(char c) { struct tiny t; t.c = c; return t; }
static struct two_ints swap2(struct two_ints p) { struct two_ints r; r.a = p.b; r.b = p.a; return r; }
static struct int_double mix(int i, double d) { struct int_double r; r.i = i * 2; r.d = d / 2; return r; }
static struct two_doubles rot90(struct two_doubles v) { struct two_doubles r; r.x = -v.y; r.y = v.x; return r; }
static struct three_longs add3(struct three_longs a, struct three_longs b)
{
    struct three_longs r;
    r.a = a.a + b.a; r.b = a.b + b.b; r.c = a.c + b.c;
    return r;
}
static struct floats4 scale4(struct floats4 v, float s)
{
    int i;
    for (i = 0; i < 4; i++)
        v.f[i] *= s;
    return v;
}
static struct big make_big(int seed)
{
    struct big b;
    int i;
    for (i = 0; i < 32; i++)
        b.data[i] = seed * i;
    b.scale = seed * 0.25;
    sprintf(b.tag, "big%d", seed);
    return b;
}
static long big_sum(struct big b)
{
    long s = 0;
    int i;
    b.data[0] = 1000000;  /* local copy only */
    for (i = 1; i < 32; i++)
        s += b.data[i];
    return s;
}
/* many struct arguments mixed with scalars */
static double combine(struct two_ints a, double x, struct int_double b, int y, struct two_doubles c, struct big d, float z)
{
    return a.a + a.b + x + b.i + b.d + y + c.x + c.y + d.data[31] + d.scale + z;
}

int main(void)
{
    struct tiny t = mk_tiny('q');
    struct two_ints p = { 1, 2 };
    struct int_double m = mix(21, 5.0);
    struct two_doubles v = { 3.0, 4.0 };
    struct three_longs l1 = { 1, 2, 3 }, l2 = { 10000000000L, 20, 30 }, l3;
    struct floats4 f4 = { { 1.0f, 2.0f, 3.0f, 4.0f } };
    struct big b1 = make_big(3), b2;

    printf("tiny %c size %d\n", t.c, (int)sizeof t);
    p = swap2(p);
    printf("swap2 %d %d\n", p.a, p.b);
    printf("mix %d %.2f\n", m.i, m.d);
    v = rot90(rot90(rot90(v)));
    printf("rot270 %.1f %.1f\n", v.x, v.y);
    l3 = add3(l1, l2);
    printf("add3 %ld %ld %ld\n", l3.a, l3.b, l3.c);
    f4 = scale4(f4, 0.5f);
    printf("scale4 %.2f %.2f %.2f %.2f\n", f4.f[0], f4.f[1], f4.f[2], f4.f[3]);
    printf("big %s data[31] %d scale %.2f sum %ld data[0] still %d\n", b1.tag, b1.data[31], b1.scale, big_sum(b1), b1.data[0]);
    b2 = b1;
    b2.data[5] = -1;
    printf("copy independent: %d %d\n", b1.data[5], b2.data[5]);
    printf("combine %.3f\n", combine(p, 0.5, m, 7, v, b1, 0.125f));
    /* returning a struct directly into a member access */
    printf("make_big(5).data[10] = %d, tag %s\n", make_big(5).data[10], make_big(6).tag);
    return 0;
}
