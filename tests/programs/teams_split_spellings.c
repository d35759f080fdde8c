/* The combined construct spelt as separate directives, as many tutorials and course
 * codes write it: `target` + `teams distribute parallel for`, `target` + `teams` +
 * `distribute parallel for`, `target teams` + `distribute parallel for simd`. Each
 * team must take its own share of the loop, and a teams reduction must add every
 * team's part (the pi integral, a dot product, a histogram-free max). */
#include <stdio.h>

#define STEPS 200000
#define LEN 50000

static double x[LEN], y[LEN];

static double pi_split_once(int steps)
{
    double step = 1.0 / steps, sum = 0.0;
#pragma omp target map(tofrom: sum)
#pragma omp teams distribute parallel for reduction(+: sum)
    for (int i = 0; i < steps; i++) {
        double t = (i + 0.5) * step;
        sum += 4.0 / (1.0 + t * t);
    }
    return sum * step;
}

static double pi_split_twice(int steps)
{
    double step = 1.0 / steps, sum = 0.0;
#pragma omp target map(tofrom: sum)
#pragma omp teams reduction(+: sum)
#pragma omp distribute parallel for reduction(+: sum)
    for (int i = 0; i < steps; i++) {
        double t = (i + 0.5) * step;
        sum += 4.0 / (1.0 + t * t);
    }
    return sum * step;
}

int main(void)
{
    int n = LEN;
    double dot = 0.0, biggest = -1.0;
    long visits = 0;

    printf("pi (target + teams distribute parallel for) = %.10f\n", pi_split_once(STEPS));
    printf("pi (target + teams + distribute parallel for) = %.10f\n", pi_split_twice(STEPS));

#pragma omp target map(from: x, y)
#pragma omp teams distribute parallel for simd
    for (int i = 0; i < n; i++) {
        x[i] = (i % 97) * 0.5;
        y[i] = 1.0 + (i % 13);
    }

    /* an update every element must see exactly once */
#pragma omp target map(tofrom: y) map(to: x)
#pragma omp teams distribute parallel for
    for (int i = 0; i < n; i++)
        y[i] = y[i] * 2.0 + x[i];

#pragma omp target teams map(to: x, y) map(tofrom: dot)
#pragma omp distribute parallel for simd reduction(+: dot)
    for (int i = 0; i < n; i++)
        dot += x[i] * y[i];

    /* a teams reduction of max, with the loop's chunks dealt round-robin */
#pragma omp target map(to: y) map(tofrom: biggest, visits)
#pragma omp teams reduction(max: biggest) reduction(+: visits)
#pragma omp distribute parallel for dist_schedule(static, 128) reduction(max: biggest) reduction(+: visits)
    for (int i = 0; i < n; i++) {
        visits += 1;
        if (y[i] > biggest)
            biggest = y[i];
    }

    /* dist_schedule chunks on the once-split spelling, with a critical section */
    double total = 0.0, squares = 0.0;
#pragma omp target map(to: x) map(tofrom: total, squares)
#pragma omp teams distribute parallel for dist_schedule(static, 64) reduction(+: total)
    for (int i = 0; i < n; i += 10) {
        total += x[i];
#pragma omp critical
        squares += x[i] * x[i];
    }

    printf("y[0] = %.1f y[12345] = %.1f y[49999] = %.1f\n", y[0], y[12345], y[n - 1]);
    printf("dot = %.1f\n", dot);
    printf("max = %.1f visits = %ld\n", biggest, visits);
    printf("total = %.1f squares = %.1f\n", total, squares);
    return 0;
}
