/* Struct-of-arrays maps in the style of XSBench/RSBench: a SimulationData struct whose
 * pointer members are mapped member by member with lengths that are members too
 * (map(to: SD.num_nucs[:SD.length_num_nucs])), scalar members mapped on their own
 * (map(tofrom: SD.max_num_nucs)), and the struct reached in the region through those
 * members, which point at the device copies. Several target regions in a loop over
 * time steps, a target data region and target update of members in between; the
 * regions inside the target data region name the members again (present: counted,
 * not copied), as the struct is only partly on the device (OpenMP 4.5 2.15.5). */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int *num_nucs;          /* nuclides per material */
    int length_num_nucs;
    double *concs;          /* concentration of each (material, nuclide) */
    int length_concs;
    int *mats;              /* nuclide index of each (material, nuclide) */
    int length_mats;
    double *egrid;          /* energy grid of all nuclides, flattened */
    int length_egrid;
    int max_num_nucs;
    int n_gridpoints;
} SimulationData;

typedef struct {
    int lookups;
    int n_isotopes;
    int n_gridpoints;
    int n_mats;
} Inputs;

static unsigned long lcg(unsigned long *seed)
{
    *seed = (*seed * 6364136223846793005UL + 1442695040888963407UL);
    return *seed >> 33;
}

static SimulationData build(const Inputs in)
{
    SimulationData SD;
    unsigned long seed = 42;
    int m, k, i;
    SD.max_num_nucs = 0;
    SD.n_gridpoints = in.n_gridpoints;
    SD.length_num_nucs = in.n_mats;
    SD.num_nucs = malloc(in.n_mats * sizeof(int));
    for (m = 0; m < in.n_mats; m++) {
        SD.num_nucs[m] = 3 + (int)(lcg(&seed) % 6);
        if (SD.num_nucs[m] > SD.max_num_nucs)
            SD.max_num_nucs = SD.num_nucs[m];
    }
    SD.length_concs = in.n_mats * SD.max_num_nucs;
    SD.length_mats = SD.length_concs;
    SD.concs = malloc(SD.length_concs * sizeof(double));
    SD.mats = malloc(SD.length_mats * sizeof(int));
    for (m = 0; m < in.n_mats; m++)
        for (k = 0; k < SD.max_num_nucs; k++) {
            SD.concs[m * SD.max_num_nucs + k] = (lcg(&seed) % 1000) / 1000.0;
            SD.mats[m * SD.max_num_nucs + k] = (int)(lcg(&seed) % in.n_isotopes);
        }
    SD.length_egrid = in.n_isotopes * in.n_gridpoints;
    SD.egrid = malloc(SD.length_egrid * sizeof(double));
    for (i = 0; i < SD.length_egrid; i++)
        SD.egrid[i] = (i % in.n_gridpoints) / (double)in.n_gridpoints + (i / in.n_gridpoints) * 1e-3;
    return SD;
}

#pragma omp declare target
static double micro_xs(double e, int nuc, const SimulationData *SD)
{
    const double *grid = SD->egrid + (long)nuc * SD->n_gridpoints;
    int lo = 0, hi = SD->n_gridpoints - 1;
    while (hi - lo > 1) {               /* binary search, as XSBench's grid search */
        int mid = (lo + hi) / 2;
        if (grid[mid] > e)
            hi = mid;
        else
            lo = mid;
    }
    return grid[lo] * 0.5 + grid[hi] * 0.25 + nuc * 1e-4;
}

static double macro_xs(double e, int mat, const SimulationData *SD)
{
    double total = 0.0;
    int k;
    for (k = 0; k < SD->num_nucs[mat]; k++) {
        int index = mat * SD->max_num_nucs + k;
        total += SD->concs[index] * micro_xs(e, SD->mats[index], SD);
    }
    return total;
}
#pragma omp end declare target

int main(void)
{
    Inputs in;
    SimulationData SD;
    double *results;
    int *mat_hits;
    int step, i;
    long checksum = 0;

    in.lookups = 2000;
    in.n_isotopes = 24;
    in.n_gridpoints = 64;
    in.n_mats = 12;
    SD = build(in);
    results = malloc(in.lookups * sizeof(double));
    mat_hits = calloc(in.n_mats, sizeof(int));

    for (step = 0; step < 3; step++) {
        double sum = 0.0;
#pragma omp target teams distribute parallel for \
        map(to: SD.num_nucs[:SD.length_num_nucs]) \
        map(to: SD.concs[:SD.length_concs]) \
        map(to: SD.mats[:SD.length_mats]) \
        map(to: SD.egrid[:SD.length_egrid]) \
        map(to: SD.max_num_nucs, SD.n_gridpoints) \
        map(from: results[:in.lookups])
        for (i = 0; i < in.lookups; i++) {
            unsigned long seed = 1000003UL * (i + 1) + step;
            double e = (lcg(&seed) % 100000) / 100000.0;
            int mat = (int)(lcg(&seed) % in.n_mats);
            results[i] = macro_xs(e, mat, &SD);
        }
        for (i = 0; i < in.lookups; i++)
            sum += results[i];
        printf("step %d: sum of macroscopic cross sections %.6f\n", step, sum);
        for (i = 0; i < SD.length_concs; i++)      /* the host refreshes the concentrations */
            SD.concs[i] *= 1.01;
    }

    /* the arrays stay on the device for several regions; a scalar member comes back */
#pragma omp target data map(to: SD.num_nucs[:SD.length_num_nucs], SD.concs[:SD.length_concs], \
                                SD.mats[:SD.length_mats], SD.egrid[:SD.length_egrid], \
                                SD.n_gridpoints) \
                        map(tofrom: SD.max_num_nucs)
    {
#pragma omp target teams distribute parallel for map(tofrom: mat_hits[:in.n_mats]) \
        map(to: SD.num_nucs[:SD.length_num_nucs], SD.concs[:SD.length_concs]) \
        map(to: SD.mats[:SD.length_mats], SD.egrid[:SD.length_egrid], SD.n_gridpoints) \
        map(to: SD.max_num_nucs)
        for (i = 0; i < in.lookups; i++) {
            int mat = i % in.n_mats;
            if (macro_xs(0.5, mat, &SD) > 0.1) {
#pragma omp atomic
                mat_hits[mat] += 1;
            }
        }
        /* scale the concentrations on the host, send only them */
        for (i = 0; i < SD.length_concs; i++)
            SD.concs[i] = 0.5;
#pragma omp target update to(SD.concs[:SD.length_concs])
#pragma omp target map(from: results[0:1]) \
        map(to: SD.num_nucs[:SD.length_num_nucs], SD.concs[:SD.length_concs]) \
        map(to: SD.mats[:SD.length_mats], SD.egrid[:SD.length_egrid], SD.n_gridpoints) \
        map(tofrom: SD.max_num_nucs)
        {
            results[0] = macro_xs(0.25, 0, &SD);
            SD.max_num_nucs += 100;            /* comes back at the end of target data */
        }
        printf("after update: %.6f\n", results[0]);
    }
    printf("max_num_nucs now %d\n", SD.max_num_nucs);
    for (i = 0; i < in.n_mats; i++)
        checksum += (long)mat_hits[i] * (i + 1);
    printf("material hits checksum %ld\n", checksum);

    free(SD.num_nucs);
    free(SD.concs);
    free(SD.mats);
    free(SD.egrid);
    free(results);
    free(mat_hits);
    return 0;
}
