/* C99 compound literals and designated initializers (arrays, nested structs, unions, out of order). */
#include <stdio.h>

struct point { int x, y; };
struct config { const char *name; int level; double ratio; struct point origin; int tags[4]; };
union num { int i; float f; unsigned char bytes[4]; };

static int sum_points(const struct point *pts, int n)
{
    int i, s = 0;
    for (i = 0; i < n; i++)
        s += pts[i].x * pts[i].y;
    return s;
}

static struct point mid(struct point a, struct point b) { return (struct point){ (a.x + b.x) / 2, (a.y + b.y) / 2 }; }

int main(void)
{
    struct config c = { .level = 3, .name = "cfg", .origin.y = -5, .tags = { [2] = 7, [0] = 1 } };
    struct config d = { "plain", 1, 0.5, { 2, 3 }, { 9, 8, 7, 6 } };
    int arr[10] = { [9] = 90, [3] = 30, 40, 50, [0] = -1 };
    struct point pts[] = { [2] = { .y = 4, .x = 3 }, [0] = { 1, 2 } };
    union num u = { .f = 1.0f };
    int *ip;
    int i;

    printf("c: %s %d %.2f (%d,%d) tags %d %d %d %d\n", c.name, c.level, c.ratio, c.origin.x, c.origin.y,
           c.tags[0], c.tags[1], c.tags[2], c.tags[3]);
    printf("d: %s %d %.2f (%d,%d) tags %d %d %d %d\n", d.name, d.level, d.ratio, d.origin.x, d.origin.y,
           d.tags[0], d.tags[1], d.tags[2], d.tags[3]);
    printf("arr:");
    for (i = 0; i < 10; i++)
        printf(" %d", arr[i]);
    printf("\n");
    printf("pts: %d elements, (%d,%d) (%d,%d) (%d,%d)\n", (int)(sizeof pts / sizeof pts[0]),
           pts[0].x, pts[0].y, pts[1].x, pts[1].y, pts[2].x, pts[2].y);
    printf("union .f = 1.0 -> i = 0x%08x\n", u.i);

    /* compound literals as function arguments and return values */
    printf("sum_points(literal) = %d\n", sum_points((struct point[]){ { 1, 1 }, { 2, 3 }, { 4, 5 } }, 3));
    {
        struct point m = mid((struct point){ 0, 0 }, (struct point){ 10, -6 });
        printf("mid = (%d,%d)\n", m.x, m.y);
    }
    /* compound literal arrays are modifiable lvalues */
    ip = (int[]){ 5, 6, 7 };
    ip[1] = 60;
    printf("ip: %d %d %d\n", ip[0], ip[1], ip[2]);
    /* assignment from a compound literal resets unspecified members to zero */
    d = (struct config){ .name = "reset", .tags[3] = 4 };
    printf("d reset: %s %d %.2f (%d,%d) tags %d %d %d %d\n", d.name, d.level, d.ratio, d.origin.x, d.origin.y,
           d.tags[0], d.tags[1], d.tags[2], d.tags[3]);
    /* a compound literal in a loop gets fresh values each iteration */
    for (i = 0; i < 3; i++) {
        struct point *p = &(struct point){ i, i * i };
        printf("loop literal (%d,%d)\n", p->x, p->y);
    }
    /* scalar compound literal and const-qualified literal */
    printf("scalar literal %d, const literal %s\n", (int){ 42 }, (const char *[]){ "a", "bc" }[1]);
    /* nested designators into an array of structs */
    {
        struct config cs[2] = { [1].origin = { 7, 8 }, [1].name = "second", [0].level = 9 };
        printf("cs[0].level %d cs[1] %s (%d,%d)\n", cs[0].level, cs[1].name, cs[1].origin.x, cs[1].origin.y);
    }
    return 0;
}
