/* sections as a code uses them for independent sub-tasks of one step: statistics of
 * three arrays each in its own section (whatever thread runs it), a reduction across the
 * sections, lastprivate from the last section, more sections than threads, and two
 * sections constructs back to back with nowait. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 3000

struct samples {
    double pressure[N];
    double density[N];
    double velocity[N];
};

struct stats {
    double mean;
    double peak;
};

static void summarise(const double *x, int n, struct stats *s)
{
    double sum = 0.0, peak = x[0];
    for (int i = 0; i < n; i++) {
        sum += x[i];
        if (x[i] > peak)
            peak = x[i];
    }
    s->mean = sum / n;
    s->peak = peak;
}

static void fill(struct samples *s)
{
    for (int i = 0; i < N; i++) {
        s->pressure[i] = 1.0 + 0.001 * ((i * 37) % 1000);
        s->density[i] = 0.5 + 0.0007 * ((i * 91) % 700);
        s->velocity[i] = -2.0 + 0.004 * ((i * 53) % 1000);
    }
}

int main(void)
{
    struct samples *s = malloc(sizeof *s);
    struct stats p, d, v;
    long visits = 0;
    int which = -1;
    double scaled[5] = {0};

    fill(s);
#pragma omp parallel
    {
#pragma omp sections reduction(+:visits) lastprivate(which)
        {
#pragma omp section
            { summarise(s->pressure, N, &p); visits += 1; which = 1; }
#pragma omp section
            { summarise(s->density, N, &d); visits += 10; which = 2; }
#pragma omp section
            { summarise(s->velocity, N, &v); visits += 100; which = 3; }
        }

        /* five sections, whatever the team size; the first needs no section directive */
#pragma omp sections nowait
        {
            scaled[0] = p.mean * 2.0;
#pragma omp section
            scaled[1] = d.mean * 3.0;
#pragma omp section
            scaled[2] = v.peak * 4.0;
#pragma omp section
            scaled[3] = p.peak + d.peak;
#pragma omp section
            scaled[4] = v.mean - p.mean;
        }
#pragma omp sections
        {
#pragma omp section
            visits += 1000;     /* one thread runs it: no race */
        }
    }
    printf("pressure mean %.6f peak %.6f\n", p.mean, p.peak);
    printf("density mean %.6f peak %.6f\n", d.mean, d.peak);
    printf("velocity mean %.6f peak %.6f\n", v.mean, v.peak);
    printf("visits %ld, last section %d\n", visits, which);
    printf("scaled %.4f %.4f %.4f %.4f %.4f\n", scaled[0], scaled[1], scaled[2], scaled[3], scaled[4]);

    /* parallel sections, combined */
    int a = 0, b = 0;
#pragma omp parallel sections
    {
#pragma omp section
        a = 7;
#pragma omp section
        b = 9;
    }
    printf("parallel sections: %d %d\n", a, b);
    free(s);
    return 0;
}
