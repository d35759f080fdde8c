/* Monte Carlo benchmarks of the kind course codes and benchmark suites use:
 * pi by dart throwing with a per-sample LCG (leap-frogged so every sample is
 * independent of the thread that draws it), a histogram of normally
 * distributed samples (Box-Muller) with atomic bin updates, and a 1-D random
 * walk with min/max reductions. All counts are integers, so every OpenMP
 * implementation prints the same numbers.
 *
 * Command line: [-s samples] [-b bins] [-w walkers]; other words are ignored. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#define LCG_A 6364136223846793005ULL
#define LCG_C 1442695040888963407ULL

typedef struct {
    long samples;
    int bins;
    int walkers;
    int walk_steps;
} Config;

#pragma omp declare target
/* The state after `n` steps from `seed` in O(log n) (Brown's method). */
unsigned long long lcg_skip(unsigned long long seed, unsigned long long n)
{
    unsigned long long acc_mult = 1, acc_plus = 0, cur_mult = LCG_A, cur_plus = LCG_C;
    while (n > 0) {
        if (n & 1) {
            acc_mult *= cur_mult;
            acc_plus = acc_plus * cur_mult + cur_plus;
        }
        cur_plus = (cur_mult + 1) * cur_plus;
        cur_mult *= cur_mult;
        n >>= 1;
    }
    return acc_mult * seed + acc_plus;
}

double lcg_next(unsigned long long *state)
{
    *state = *state * LCG_A + LCG_C;
    return (double) (*state >> 11) * (1.0 / 9007199254740992.0);
}
#pragma omp end declare target

static double wall(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return tv.tv_sec + tv.tv_usec / 1e6;
}

static long count_hits(long samples, unsigned long long seed)
{
    long hits = 0, i;
#pragma omp target teams distribute parallel for reduction(+: hits) map(tofrom: hits)
    for (i = 0; i < samples; i++) {
        unsigned long long s = lcg_skip(seed, 2ULL * (unsigned long long) i);
        double x = lcg_next(&s), y = lcg_next(&s);
        if (x * x + y * y <= 1.0)
            hits++;
    }
    return hits;
}

/* Samples of N(0, 1) into bins over [-4, 4); outliers counted apart. */
static void gaussian_histogram(long samples, int bins, unsigned long long seed, int *histogram, long *outliers)
{
    long out = 0, i;
    int b;
    for (b = 0; b < bins; b++)
        histogram[b] = 0;
#pragma omp target teams distribute parallel for map(tofrom: histogram[0:bins]) reduction(+: out)
    for (i = 0; i < samples; i++) {
        unsigned long long s = lcg_skip(seed, 2ULL * (unsigned long long) i);
        double u1 = lcg_next(&s), u2 = lcg_next(&s);
        double z = sqrt(-2.0 * log(u1 + 1e-300)) * cos(6.283185307179586 * u2);
        int bin = (int) floor((z + 4.0) / 8.0 * bins);
        if (bin >= 0 && bin < bins) {
#pragma omp atomic update
            histogram[bin]++;
        } else {
            out++;
        }
    }
    *outliers = out;
}

/* Walkers take +-1 steps; the extreme positions reached and the final spread. */
static void random_walk(int walkers, int steps, unsigned long long seed, int *lowest, int *highest,
                        long long *sum_sq)
{
    int lo = 0, hi = 0, w;
    long long sq = 0;
#pragma omp target teams distribute parallel for reduction(min: lo) reduction(max: hi) reduction(+: sq) \
    map(tofrom: lo, hi, sq)
    for (w = 0; w < walkers; w++) {
        unsigned long long s = lcg_skip(seed, (unsigned long long) w * steps);
        int pos = 0, k;
        for (k = 0; k < steps; k++) {
            pos += lcg_next(&s) < 0.5 ? -1 : 1;
            if (pos < lo)
                lo = pos;
            if (pos > hi)
                hi = pos;
        }
        sq += (long long) pos * pos;
    }
    *lowest = lo;
    *highest = hi;
    *sum_sq = sq;
}

/* The reference for the first `samples` draws: the same generator stepped
 * sequentially on the host (no skip-ahead), so it also checks lcg_skip. */
static void host_reference(long samples, unsigned long long seed, int bins, long *hits, int *histogram)
{
    unsigned long long s = seed, t = seed ^ 0x5deece66dULL;
    long i;
    int b;
    *hits = 0;
    for (b = 0; b < bins; b++)
        histogram[b] = 0;
    for (i = 0; i < samples; i++) {
        double x = lcg_next(&s), y = lcg_next(&s);
        double u1 = lcg_next(&t), u2 = lcg_next(&t);
        double z = sqrt(-2.0 * log(u1 + 1e-300)) * cos(6.283185307179586 * u2);
        int bin = (int) floor((z + 4.0) / 8.0 * bins);
        if (x * x + y * y <= 1.0)
            ++*hits;
        if (bin >= 0 && bin < bins)
            histogram[bin]++;
    }
}

int main(int argc, char **argv)
{
    Config cfg = {400000, 32, 2048, 500};
    unsigned long long seed = 20240601ULL;
    int *histogram, lowest, highest, b, peak = 0, i;
    long hits, outliers, total = 0;
    long long sum_sq;
    double t0, t_pi, t_hist, t_walk;

    for (i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "-s"))
            cfg.samples = atol(argv[++i]);
        else if (!strcmp(argv[i], "-b"))
            cfg.bins = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-w"))
            cfg.walkers = atoi(argv[++i]);
    }
    histogram = malloc(cfg.bins * sizeof(int));
    printf("Monte Carlo: %ld samples, %d bins, %d walkers of %d steps\n", cfg.samples, cfg.bins, cfg.walkers,
           cfg.walk_steps);

    t0 = wall();
    hits = count_hits(cfg.samples, seed);
    t_pi = wall() - t0;
    printf("pi: %ld hits of %ld, estimate %.6f (error %.2e)\n", hits, cfg.samples,
           4.0 * hits / cfg.samples, fabs(4.0 * hits / cfg.samples - 3.14159265358979));

    t0 = wall();
    gaussian_histogram(cfg.samples, cfg.bins, seed ^ 0x5deece66dULL, histogram, &outliers);
    t_hist = wall() - t0;
    for (b = 0; b < cfg.bins; b++) {
        total += histogram[b];
        if (histogram[b] > histogram[peak])
            peak = b;
    }
    printf("histogram: %ld binned, %ld outliers, peak bin %d\n", total, outliers, peak);
    for (b = 0; b < cfg.bins; b += cfg.bins / 8 > 0 ? cfg.bins / 8 : 1) {
        int stars = (int) (60.0 * histogram[b] / histogram[peak]);
        printf("  [%+5.2f) %7d ", -4.0 + 8.0 * b / cfg.bins, histogram[b]);
        while (stars-- > 0)
            putchar('*');
        putchar('\n');
    }

    t0 = wall();
    random_walk(cfg.walkers, cfg.walk_steps, seed + 99, &lowest, &highest, &sum_sq);
    t_walk = wall() - t0;
    printf("random walk: lowest %d, highest %d, mean squared distance %.4f\n", lowest, highest,
           (double) sum_sq / cfg.walkers);
    {
        long check = cfg.samples < 100000 ? cfg.samples : 100000, ref_hits, dev_hits = count_hits(check, seed);
        int *ref_hist = malloc(cfg.bins * sizeof(int)), *dev_hist = malloc(cfg.bins * sizeof(int)), same = 1;
        long dev_outliers;
        host_reference(check, seed, cfg.bins, &ref_hits, ref_hist);
        gaussian_histogram(check, cfg.bins, seed ^ 0x5deece66dULL, dev_hist, &dev_outliers);
        for (b = 0; b < cfg.bins; b++)
            same &= ref_hist[b] == dev_hist[b];
        printf("host check of the first %ld samples: hits %s, histogram %s\n", check,
               ref_hits == dev_hits ? "equal" : "DIFFER", same ? "equal" : "DIFFERS");
        free(ref_hist);
        free(dev_hist);
    }
    printf("timing: pi %.4f s, histogram %.4f s, walk %.4f s\n", t_pi, t_hist, t_walk);
    free(histogram);
    return 0;
}
