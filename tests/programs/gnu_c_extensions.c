/* The GNU C and C11 spellings that headers and HPC codes use: attributes in
   every position, __inline__/__restrict__/__extension__, asm labels,
   __typeof__, __builtin_expect/__builtin_unreachable, _Static_assert,
   _Alignas/_Alignof/__alignof__, _Noreturn, anonymous struct and union
   members, compound literals and flexible array members. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define MAX(a, b) __extension__ ((a) > (b) ? (a) : (b))
#define SWAP(x, y) do { __typeof__(x) tmp_ = (x); (x) = (y); (y) = tmp_; } while (0)

_Static_assert(sizeof(double) == 8, "double is 64 bits");

typedef struct {
    int n;
    double values[];              /* flexible array member */
} series_t;

struct particle {
    int id;
    union {                       /* anonymous union: p.mass or p.bits */
        double mass;
        unsigned long long bits;
    };
    struct {                      /* anonymous struct: p.x, p.y, p.z */
        double x, y, z;
    };
} __attribute__((may_alias));

static __inline__ double sq(double v) __attribute__((always_inline, const));
static __inline__ double sq(double v) { return v * v; }

/* An asm label: the function the program calls `norm2` is the symbol
   `particle_norm2_v1`, as headers redirect names. */
double norm2(const struct particle *p) __asm__("particle_norm2_v1");
double particle_norm2_v1(const struct particle *p)
{
    return sq(p->x) + sq(p->y) + sq(p->z);
}

__attribute__((noinline, unused)) static double
dot(const double *__restrict__ a, const double *__restrict__ b, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

static _Noreturn void fail(const char *what) __attribute__((cold));
static void fail(const char *what)
{
    fprintf(stderr, "fatal: %s\n", what);
    exit(2);
}

static series_t *make_series(int n)
{
    series_t *s = malloc(sizeof(series_t) + n * sizeof(double));
    if (unlikely(s == NULL))
        fail("out of memory");
    s->n = n;
    for (int i = 0; i < n; i++)
        s->values[i] = 1.0 / (i + 1);
    return s;
}

static const char *kind(int k)
{
    switch (k) {
    case 0: return "zero";
    case 1: return "one";
    default: break;
    }
    if (k < 0)
        __builtin_unreachable();
    return "many";
}

int main(void)
{
    __extension__ long long big = 1LL << 40;
    _Alignas(32) double block[4] = {1.0, 2.0, 3.0, 4.0};
    int unused_counter __attribute__((unused)) = 0;
    struct particle p = {.id = 7, .mass = 2.5, .x = 1.0, .y = 2.0, .z = 2.0};
    series_t *s = make_series(5);
    __typeof__(big) copy = big;
    __typeof__(block[0]) scale = 0.5;
    int a = 3, b = 9;

    _Static_assert(sizeof(block) == 32, "four doubles");
    SWAP(a, b);
    printf("big %lld copy %lld max %d swap %d %d\n", big, copy, MAX(a, b), a, b);
    printf("particle %d mass %.2f norm2 %.2f\n", p.id, p.mass, norm2(&p));
    p.bits = 0x4000000000000000ULL;
    printf("mass via bits %.1f\n", p.mass);
    printf("sizes %zu %zu align %zu %zu %zu\n", sizeof(struct particle), sizeof(series_t),
           _Alignof(struct particle), __alignof__(double), (size_t)_Alignof(int));
    printf("dot %.4f scale %.2f\n", dot(block, s->values, 4), scale * s->values[1]);

    int *window = (int[]){10, 20, 30};
    struct particle origin = (struct particle){.id = 0};
    printf("window %d %d origin %d %.1f\n", window[1], window[2], origin.id, origin.x);

    for (int k = 0; k < 3; k++)
        printf("%s%s", kind(k), k < 2 ? " " : "\n");
    if (likely(s->n == 5))
        printf("series %d last %.3f\n", s->n, s->values[s->n - 1]);

    /* The same spellings inside a target region. */
    double energy = 0.0;
#pragma omp target teams distribute parallel for reduction(+:energy) map(to: block[0:4])
    for (int i = 0; i < 4; i++) {
        __typeof__(energy) v = block[i];
        if (unlikely(v < 0.0))
            continue;
        energy += sq(v) * (double)__alignof__(int);
    }
    printf("energy %.1f\n", energy);
    free(s);
    return 0;
}
