/* GNU statement expressions as real codes write MIN/MAX/SWAP macros, and C11
 * _Generic type dispatch, in host code and in a target region. */
#include <stdio.h>
#include <math.h>

#define MAX(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
#define MIN(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a < _b ? _a : _b; })
#define CLAMP(x, lo, hi) MIN(MAX((x), (lo)), (hi))
#define SWAP(x, y) do { __typeof__(x) _t = (x); (x) = (y); (y) = _t; } while (0)

#define ABS(x) _Generic((x), int: abs_int, long: labs_long, float: fabsf, default: fabs)(x)
#define TYPE_NAME(x) _Generic((x), char: "char", int: "int", long: "long", \
                              unsigned: "unsigned", float: "float", double: "double", \
                              char *: "char *", default: "something else")

static int abs_int(int v) { return v < 0 ? -v : v; }
static long labs_long(long v) { return v < 0 ? -v : v; }

static int calls;
static int next_value(void) { return ++calls * 3; }

int main(void) {
    int x = -7, y = 12;
    long big = -40000000000L;
    float f = -2.5f;
    double d = -0.125;
    char name[] = "abc";

    /* each argument evaluated once even though the macro names it twice */
    int m = MAX(next_value(), 5);
    printf("MAX(next_value(), 5) = %d after %d call(s)\n", m, calls);
    printf("MIN(x, y) = %d, CLAMP(42, 0, 10) = %d, CLAMP(-1.5, 0.0, 1.0) = %g\n",
           MIN(x, y), CLAMP(42, 0, 10), CLAMP(-1.5, 0.0, 1.0));
    SWAP(x, y);
    printf("after SWAP: x = %d, y = %d\n", x, y);

    /* a block with its own declarations, and its value */
    int sum_of_squares = ({
        int s = 0;
        for (int i = 1; i <= 4; i++)
            s += i * i;
        s;
    });
    printf("sum of squares = %d\n", sum_of_squares);
    /* a statement expression ending in a statement has no value; its side effects remain */
    ({ calls += 100; if (calls > 0) calls++; });
    printf("calls = %d\n", calls);
    /* a name declared inside does not leak out: this x is the outer one */
    int shadow = ({ int x = 1000; x + 1; }) + x;
    printf("shadow = %d\n", shadow);

    printf("ABS: %d %ld %g %g\n", ABS(-3), ABS(big), ABS(f), ABS(d));
    printf("types: %s %s %s %s %s %s %s %s\n", TYPE_NAME('c'), TYPE_NAME(x), TYPE_NAME(big),
           TYPE_NAME(7u), TYPE_NAME(f), TYPE_NAME(d), TYPE_NAME(name), TYPE_NAME((short)1));
    printf("sizeof a selection: %zu %zu\n", sizeof(_Generic(x, int: big, default: f)),
           sizeof(_Generic(d, int: big, default: f)));

    enum { N = 16 };
    int clamped[N];
    double scaled[N];
#pragma omp target teams distribute parallel for map(from: clamped, scaled)
    for (int i = 0; i < N; i++) {
        int v = ({ int t = (i - 8) * 3; t * t - 20; });
        clamped[i] = CLAMP(v, 0, 100);
        scaled[i] = _Generic(v, int: 0.5, default: 2.0) * MAX(i, 4);
    }
    for (int i = 0; i < N; i++)
        printf("%d:%d/%g%s", i, clamped[i], scaled[i], i + 1 < N ? " " : "\n");
    return 0;
}
