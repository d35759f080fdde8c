/* Target regions calling chains of functions, passing pointers, structs and arrays to them. */
#include <stdio.h>
#include <math.h>

struct vec3 { double x, y, z; };

#pragma omp declare target
static struct vec3 v_add(struct vec3 a, struct vec3 b) { struct vec3 r = { a.x + b.x, a.y + b.y, a.z + b.z }; return r; }
static struct vec3 v_scale(struct vec3 a, double s) { struct vec3 r = { a.x * s, a.y * s, a.z * s }; return r; }
static double v_dot(const struct vec3 *a, const struct vec3 *b) { return a->x * b->x + a->y * b->y + a->z * b->z; }
static double v_norm2(struct vec3 a) { return v_dot(&a, &a); }

static int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
static int level3(int x) { return clamp(x * 3 - 7, -50, 50); }
static int level2(int x) { return level3(x) + level3(x + 1); }
static int level1(int x) { return level2(x) - level2(x - 1); }

static void accumulate(int *dst, const int *src, int n)
{
    int i;
    for (i = 0; i < n; i++)
        dst[i] += src[i];
}

static void smooth(double *out, const double *in, int n)
{
    int i;
    for (i = 0; i < n; i++) {
        double l = in[i > 0 ? i - 1 : 0], r = in[i < n - 1 ? i + 1 : n - 1];
        out[i] = 0.25 * l + 0.5 * in[i] + 0.25 * r;
    }
}

static double use_math(double x) { return sqrt(x) + fabs(-x) + floor(x / 3); }
#pragma omp end declare target

#define N 100

int main(void)
{
    struct vec3 pts[N];
    double norms[N], in[16], out[16], m[N];
    int lv[N], acc[8] = { 0 }, src[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    int i;
    double s = 0, sm = 0;
    long ls = 0;

    for (i = 0; i < N; i++) {
        pts[i].x = i;
        pts[i].y = i * 0.5;
        pts[i].z = -1;
    }
    for (i = 0; i < 16; i++)
        in[i] = (i % 4 == 0) ? 8.0 : 0.0;

#pragma omp target teams distribute parallel for map(to: pts) map(from: norms, lv, m)
    for (i = 0; i < N; i++) {
        struct vec3 q = v_add(pts[i], v_scale(pts[i], 2.0));
        norms[i] = v_norm2(q);
        lv[i] = level1(i - 20);
        m[i] = use_math((double)(i * i));
    }
    for (i = 0; i < N; i++) {
        s += norms[i];
        ls += lv[i] * (long)(i + 1);
        sm += m[i];
    }
    printf("norms sum = %.2f, levels = %ld, math = %.2f\n", s, ls, sm);

#pragma omp target map(tofrom: acc) map(to: src, in) map(from: out)
    {
        int k;
        for (k = 0; k < 3; k++)
            accumulate(acc, src, 8);
        smooth(out, in, 16);
    }
    printf("acc = %d %d %d\n", acc[0], acc[4], acc[7]);
    printf("smooth:");
    for (i = 0; i < 16; i++)
        printf(" %.2f", out[i]);
    printf("\n");
    return 0;
}
