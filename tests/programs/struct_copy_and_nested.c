/* Struct assignment, nested structs, structs passed and returned by value. */
#include <stdio.h>
#include <string.h>

struct point { int x, y; };
struct rect { struct point lo, hi; char name[8]; };
struct mixed { char c; double d; short s; long long ll; float f; };

static struct point make_point(int x, int y)
{
    struct point p;
    p.x = x;
    p.y = y;
    return p;
}

static int area(struct rect r)
{
    r.name[0] = 'X'; /* modifies the copy only */
    return (r.hi.x - r.lo.x) * (r.hi.y - r.lo.y);
}

static struct rect grow(struct rect r, int by)
{
    r.lo.x -= by; r.lo.y -= by;
    r.hi.x += by; r.hi.y += by;
    return r;
}

static void shift(struct rect *r, struct point d)
{
    r->lo.x += d.x; r->lo.y += d.y;
    r->hi.x += d.x; r->hi.y += d.y;
}

int main(void)
{
    struct rect a, b;
    struct rect c = { { 1, 2 }, { 4, 6 }, "rc" };
    struct mixed m1 = { 'q', 2.5, -7, 1234567890123LL, 0.25f }, m2;
    struct point arr[3] = { { 1, 1 }, { 2, 4 }, { 3, 9 } };
    struct point tmp;
    int i;

    a.lo = make_point(0, 0);
    a.hi = make_point(10, 5);
    strcpy(a.name, "first");
    b = a;               /* whole-struct copy */
    b.hi.x = 20;
    strcpy(b.name, "second");
    printf("a: (%d,%d)-(%d,%d) %s area %d\n", a.lo.x, a.lo.y, a.hi.x, a.hi.y, a.name, area(a));
    printf("b: (%d,%d)-(%d,%d) %s area %d\n", b.lo.x, b.lo.y, b.hi.x, b.hi.y, b.name, area(b));
    printf("a.name after area: %s\n", a.name);
    c = grow(c, 2);
    printf("c grown: (%d,%d)-(%d,%d) %s area %d\n", c.lo.x, c.lo.y, c.hi.x, c.hi.y, c.name, area(c));
    shift(&c, make_point(-1, 3));
    printf("c shifted: (%d,%d)-(%d,%d)\n", c.lo.x, c.lo.y, c.hi.x, c.hi.y);
    m2 = m1;
    m1.d = 0;
    printf("m2: %c %.3f %d %lld %.3f\n", m2.c, m2.d, m2.s, m2.ll, m2.f);
    /* swap array elements through a temporary struct */
    tmp = arr[0]; arr[0] = arr[2]; arr[2] = tmp;
    for (i = 0; i < 3; i++)
        printf("arr[%d] = {%d,%d}\n", i, arr[i].x, arr[i].y);
    /* chained assignment of structs */
    a = b = c;
    printf("chained: %d %d %d %d\n", a.lo.x, b.hi.y, a.hi.x, b.lo.y);
    /* pointer to nested member */
    {
        int *py = &c.hi.y;
        *py = 100;
        printf("c.hi.y = %d\n", c.hi.y);
    }
    /* compound literal */
    tmp = (struct point){ 7, -7 };
    printf("tmp = %d %d\n", tmp.x, tmp.y);
    return 0;
}
