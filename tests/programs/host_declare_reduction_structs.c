/* User-defined reductions (`declare reduction`) as real codes use them: a complex sum
 * through a struct, a max-location search (value and index), a bounding box with an
 * initializer that calls a function, and an operator redefined for a struct type at
 * block scope -- all over one parallel loop, a `for` inside a parallel region, and
 * `sections`; and a target region with one, which runs on the host (a user-defined
 * reduction is not supported on the device). The results do not depend on the number of
 * threads. */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { double re, im; } complex_t;
typedef struct { double value; int index; } maxloc_t;
struct box { double lo[2], hi[2]; };

static void box_grow(struct box *out, const struct box *in) {
    for (int d = 0; d < 2; d++) {
        if (in->lo[d] < out->lo[d]) out->lo[d] = in->lo[d];
        if (in->hi[d] > out->hi[d]) out->hi[d] = in->hi[d];
    }
}

static void box_empty(struct box *b) {
    b->lo[0] = b->lo[1] = DBL_MAX;
    b->hi[0] = b->hi[1] = -DBL_MAX;
}

static maxloc_t maxloc_pick(maxloc_t a, maxloc_t b) {
    /* ties go to the lower index, so the answer is the same for any split */
    if (b.value > a.value || (b.value == a.value && b.index < a.index))
        return b;
    return a;
}

#pragma omp declare reduction(csum : complex_t : omp_out.re += omp_in.re, omp_out.im += omp_in.im) \
    initializer(omp_priv = (complex_t){0.0, 0.0})
#pragma omp declare reduction(maxloc : maxloc_t : omp_out = maxloc_pick(omp_out, omp_in)) \
    initializer(omp_priv = omp_orig)
#pragma omp declare reduction(grow : struct box : box_grow(&omp_out, &omp_in)) initializer(box_empty(&omp_priv))

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 5000;
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    for (int i = 0; i < n; i++) {
        x[i] = (double)((i * 37) % 101) - 50.0;
        y[i] = (double)((i * 53) % 97) * 0.5;
    }

    complex_t total = {1.0, -1.0};          /* the original's value takes part */
    maxloc_t best = {-1e300, -1};
    int i;
#pragma omp parallel for private(i) reduction(csum : total) reduction(maxloc : best)
    for (i = 0; i < n; i++) {
        total.re += x[i];
        total.im += y[i];
        maxloc_t here = {x[i] * y[i], i};
        best = maxloc_pick(best, here);
    }
    printf("complex sum: %.1f %+.1fi\n", total.re, total.im);
    printf("max x*y: %.2f at %d\n", best.value, best.index);

    struct box bounds;
    box_empty(&bounds);
#pragma omp parallel
    {
#pragma omp for reduction(grow : bounds) schedule(dynamic, 64)
        for (int k = 0; k < n; k++) {
            struct box point = {{x[k], y[k]}, {x[k], y[k]}};
            box_grow(&bounds, &point);
        }
    }
    printf("bounding box: [%.1f, %.1f] x [%.1f, %.1f]\n", bounds.lo[0], bounds.hi[0], bounds.lo[1],
           bounds.hi[1]);

    {
        /* `+` given a meaning for a struct type, in this block only */
#pragma omp declare reduction(+ : complex_t : omp_out.re += omp_in.re, omp_out.im += omp_in.im)
        complex_t halves = {0.0, 0.0};
#pragma omp parallel sections reduction(+ : halves)
        {
#pragma omp section
            for (int k = 0; k < n / 2; k++) { halves.re += x[k]; halves.im += y[k]; }
#pragma omp section
            for (int k = n / 2; k < n; k++) { halves.re += x[k]; halves.im += y[k]; }
        }
        printf("halves: %.1f %+.1fi\n", halves.re, halves.im);
    }

    complex_t offloaded = {0.0, 0.0};
#pragma omp target teams distribute parallel for map(to: x[0:n], y[0:n]) map(tofrom: offloaded) \
    reduction(csum : offloaded)
    for (int k = 0; k < n; k++) {
        offloaded.re += x[k];
        offloaded.im -= y[k];
    }
    printf("target region: %.1f %+.1fi\n", offloaded.re, offloaded.im);
    free(x);
    free(y);
    return 0;
}
