/* A particle code's time step as independent target tasks, the way LULESH launches one
 * kernel per material region: each phase launches several `target ... nowait` regions on
 * disjoint slices (and one beside them on other arrays), then waits. The runtime may run
 * a phase's launches as one fused launch (docs/async.md, "Fused launches"); what must not
 * be fused is here too: a region asking omp_get_team_num(), a `depend` chain through a
 * mapped array, launches separated by a taskwait, a synchronous region between two
 * nowait ones, a reduction (its scalar is mapped for the region alone). Values are small
 * dyadic fractions, so every device computes them exactly.
 *
 *   usage: target_nowait_fused_phases [-s steps] [-n particles] [-r regions]
 */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_TEAMS 4096

struct energy_weights {
    double half;
    int offset;
};

struct particles {
    double *x, *v, *f, *energy;
    int count;
};

static int make_particles(struct particles *p, int count) {
    int i;
    p->count = count;
    p->x = malloc(sizeof(double) * count);
    p->v = malloc(sizeof(double) * count);
    p->f = malloc(sizeof(double) * count);
    p->energy = malloc(sizeof(double) * count);
    if (!p->x || !p->v || !p->f || !p->energy)
        return -1;
    for (i = 0; i < count; i++) {
        p->x[i] = (double)(i % 97) - 48.0;
        p->v[i] = (double)(i % 13) * 0.5;
        p->f[i] = 0.0;
        p->energy[i] = 0.0;
    }
    return 0;
}

static void free_particles(struct particles *p) {
    free(p->x);
    free(p->v);
    free(p->f);
    free(p->energy);
}

static double sum(const double *values, int count) {
    double total = 0.0;
    int i;
    for (i = 0; i < count; i++)
        total += values[i];
    return total;
}

int main(int argc, char **argv) {
    struct particles p;
    int steps = 4, count = 30000, regions = 6, option, step, r, i;
    int teams_seen[MAX_TEAMS];
    struct energy_weights weights = {0.5, 1};
    long kinetic_units = 0;

    while ((option = getopt(argc, argv, "s:n:r:")) != -1) {
        switch (option) {
        case 's': steps = atoi(optarg); break;
        case 'n': count = atoi(optarg); break;
        case 'r': regions = atoi(optarg); break;
        default:
            fprintf(stderr, "usage: %s [-s steps] [-n particles] [-r regions]\n", argv[0]);
            return 2;
        }
    }
    if (make_particles(&p, count) != 0)
        return 1;
    for (i = 0; i < MAX_TEAMS; i++)
        teams_seen[i] = 0;

    {
        double *x = p.x, *v = p.v, *f = p.f, *energy = p.energy;
        const int n = p.count;
        #pragma omp target data map(tofrom: x[0:n], v[0:n], f[0:n], energy[0:n], teams_seen[0:MAX_TEAMS])
        for (step = 0; step < steps; step++) {
            /* phase 1: forces on each slice, energies beside them (x only read) */
            for (r = 0; r < regions; r++) {
                const int lo = r * n / regions, hi = (r + 1) * n / regions;
                const float stiffness = 0.5f * (float)(r + 1);
                const char shift = (char)(r - 2);
                #pragma omp target teams distribute parallel for nowait firstprivate(stiffness, shift)
                for (i = lo; i < hi; i++)
                    f[i] = -(double)stiffness * x[i] + (double)shift;
            }
            #pragma omp target teams distribute parallel for nowait firstprivate(weights)
            for (i = 0; i < n; i++)
                energy[i] = weights.half * x[i] * x[i] + weights.offset;
            #pragma omp taskwait

            /* phase 2: velocities per slice, and a region that asks its team number */
            for (r = 0; r < regions; r++) {
                const int lo = r * n / regions, hi = (r + 1) * n / regions;
                #pragma omp target teams distribute parallel for nowait
                for (i = lo; i < hi; i++)
                    v[i] = 0.5 * v[i] + 0.25 * f[i];
            }
            #pragma omp target teams distribute parallel for nowait num_teams(64)
            for (i = 0; i < n; i++)
                if (i % 1000 == 0)
                    teams_seen[omp_get_team_num() % MAX_TEAMS] = 1;
            #pragma omp taskwait

            /* phase 3: positions through a depend chain on x */
            #pragma omp target teams distribute parallel for nowait depend(out: x[0:n])
            for (i = 0; i < n; i++)
                x[i] = x[i] + 0.125 * v[i];
            #pragma omp target teams distribute parallel for nowait depend(inout: x[0:n])
            for (i = 0; i < n; i++)
                x[i] = x[i] > 64.0 ? x[i] - 128.0 : x[i] < -64.0 ? x[i] + 128.0 : x[i];
            #pragma omp taskwait

            /* phase 4: a nowait region, then a synchronous one on the other half */
            #pragma omp target teams distribute parallel for nowait
            for (i = 0; i < n / 2; i++)
                f[i] = 0.0;
            #pragma omp target teams distribute parallel for
            for (i = n / 2; i < n; i++)
                f[i] = 1.0;
            #pragma omp taskwait

            /* a reduction: its scalar is mapped for the region alone */
            {
                long units = 0;
                #pragma omp target teams distribute parallel for reduction(+: units) map(tofrom: units)
                for (i = 0; i < n; i++)
                    units += (long)(4.0 * v[i] * v[i]) % 1000;
                kinetic_units += units;
            }
            #pragma omp target update from(x[0:n])
            printf("step %d: sum x %.6f, kinetic units %ld\n", step, sum(x, n), kinetic_units);
        }
    }
    {
        int teams = 0;
        for (i = 0; i < MAX_TEAMS; i++)
            teams += teams_seen[i];
        printf("sum v %.6f, sum f %.6f, sum energy %.6f, some team seen: %s\n", sum(p.v, count), sum(p.f, count),
               sum(p.energy, count), teams > 0 ? "yes" : "no");
    }
    free_particles(&p);
    return 0;
}
