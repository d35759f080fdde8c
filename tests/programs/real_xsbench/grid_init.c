/* The nuclide energy grids (random, sorted per nuclide) and the materials. */
#include <stdlib.h>
#include "XSbench_header.h"

static int compare_grid_points(const void *a, const void *b)
{
    double ea = ((const NuclideGridPoint *) a)->energy, eb = ((const NuclideGridPoint *) b)->energy;
    return (ea > eb) - (ea < eb);
}

SimulationData grid_init(const Inputs *in)
{
    /* Nuclides per material: the fuel holds most of them, as in the H-M model. */
    static const int nuclides_in[N_MATERIALS] = {34, 5, 4, 4, 27, 21, 21, 21, 21, 21, 9, 9};
    SimulationData SD;
    unsigned long long seed = 42ULL;
    int i, j;
    long p;

    SD.length_nuclide_grid = (int) (in->n_isotopes * in->n_gridpoints);
    SD.nuclide_grid = malloc(SD.length_nuclide_grid * sizeof(NuclideGridPoint));
    for (p = 0; p < SD.length_nuclide_grid; p++) {
        NuclideGridPoint *g = &SD.nuclide_grid[p];
        g->energy = LCG_random_double(&seed);
        g->total_xs = LCG_random_double(&seed);
        g->elastic_xs = LCG_random_double(&seed);
        g->absorbtion_xs = LCG_random_double(&seed);
        g->fission_xs = LCG_random_double(&seed);
        g->nu_fission_xs = LCG_random_double(&seed);
    }
    for (i = 0; i < in->n_isotopes; i++)
        qsort(&SD.nuclide_grid[i * in->n_gridpoints], in->n_gridpoints, sizeof(NuclideGridPoint),
              compare_grid_points);

    SD.length_num_nucs = N_MATERIALS;
    SD.num_nucs = malloc(N_MATERIALS * sizeof(int));
    SD.max_num_nucs = 0;
    for (i = 0; i < N_MATERIALS; i++) {
        SD.num_nucs[i] = nuclides_in[i] < in->n_isotopes ? nuclides_in[i] : in->n_isotopes;
        if (SD.num_nucs[i] > SD.max_num_nucs)
            SD.max_num_nucs = SD.num_nucs[i];
    }
    SD.length_mats = N_MATERIALS * SD.max_num_nucs;
    SD.length_concs = SD.length_mats;
    SD.mats = calloc(SD.length_mats, sizeof(int));
    SD.concs = calloc(SD.length_concs, sizeof(double));
    for (i = 0; i < N_MATERIALS; i++)
        for (j = 0; j < SD.num_nucs[i]; j++) {
            SD.mats[i * SD.max_num_nucs + j] = (i * 7 + j * 13) % in->n_isotopes;
            SD.concs[i * SD.max_num_nucs + j] = LCG_random_double(&seed);
        }
    SD.length_verification = in->lookups;
    SD.verification = malloc(in->lookups * sizeof(unsigned long));
    return SD;
}

void free_simulation_data(SimulationData *SD)
{
    free(SD->nuclide_grid);
    free(SD->num_nucs);
    free(SD->mats);
    free(SD->concs);
    free(SD->verification);
}
