/* The functions a cross-section lookup calls, compiled for the device. */
#include "XSbench_header.h"

/* ------------------------------------------------------------ random numbers */
#pragma omp declare target
double LCG_random_double(unsigned long long *seed)
{
    const unsigned long long m = 9223372036854775808ULL; /* 2^63 */
    const unsigned long long a = 6364136223846793005ULL;
    const unsigned long long c = 1ULL;
    *seed = (a * (*seed) + c) % m;
    return (double) (*seed) / (double) m;
}

unsigned long long fast_forward_LCG(unsigned long long seed, unsigned long long n)
{
    const unsigned long long m = 9223372036854775808ULL;
    unsigned long long a = 6364136223846793005ULL;
    unsigned long long c = 1ULL;
    unsigned long long a_new = 1, c_new = 0;
    n = n % m;
    while (n > 0) {
        if (n & 1) {
            a_new *= a;
            c_new = c_new * a + c;
        }
        c *= (a + 1);
        a *= a;
        n >>= 1;
    }
    return (a_new * seed + c_new) % m;
}

int pick_mat(unsigned long long *seed)
{
    /* The fraction of lookups that land in each material (fuel first). */
    double dist[N_MATERIALS] = {0.140, 0.052, 0.275, 0.134, 0.154, 0.064,
                                0.066, 0.055, 0.008, 0.015, 0.025, 0.013};
    double roll = LCG_random_double(seed);
    double running = 0;
    int i;
    for (i = 0; i < N_MATERIALS - 1; i++) {
        running += dist[i];
        if (roll < running)
            return i;
    }
    return N_MATERIALS - 1;
}

long grid_search_nuclide(long n, double quarry, const NuclideGridPoint *A, long low, long high)
{
    long length = high - low;
    while (length > 1) {
        long examination = low + length / 2;
        if (A[examination].energy > quarry)
            high = examination;
        else
            low = examination;
        length = high - low;
    }
    (void) n;
    return low;
}

void calculate_micro_xs(double p_energy, int nuc, long n_gridpoints,
                        const NuclideGridPoint *nuclide_grids, double *xs_vector)
{
    const NuclideGridPoint *grid = &nuclide_grids[nuc * n_gridpoints];
    long idx = grid_search_nuclide(n_gridpoints, p_energy, grid, 0, n_gridpoints - 1);
    const NuclideGridPoint *low, *high;
    double f;
    if (idx == n_gridpoints - 1)
        idx--;
    low = &grid[idx];
    high = &grid[idx + 1];
    f = (high->energy - p_energy) / (high->energy - low->energy);
    xs_vector[0] = high->total_xs - f * (high->total_xs - low->total_xs);
    xs_vector[1] = high->elastic_xs - f * (high->elastic_xs - low->elastic_xs);
    xs_vector[2] = high->absorbtion_xs - f * (high->absorbtion_xs - low->absorbtion_xs);
    xs_vector[3] = high->fission_xs - f * (high->fission_xs - low->fission_xs);
    xs_vector[4] = high->nu_fission_xs - f * (high->nu_fission_xs - low->nu_fission_xs);
}

void calculate_macro_xs(double p_energy, int mat, long n_gridpoints, const int *num_nucs,
                        const double *concs, const NuclideGridPoint *nuclide_grids,
                        const int *mats, double *macro_xs_vector, int max_num_nucs)
{
    double xs_vector[N_XS];
    int j, k;
    for (k = 0; k < N_XS; k++)
        macro_xs_vector[k] = 0;
    for (j = 0; j < num_nucs[mat]; j++) {
        int p_nuc = mats[mat * max_num_nucs + j];
        double conc = concs[mat * max_num_nucs + j];
        calculate_micro_xs(p_energy, p_nuc, n_gridpoints, nuclide_grids, xs_vector);
        for (k = 0; k < N_XS; k++)
            macro_xs_vector[k] += xs_vector[k] * conc;
    }
}
#pragma omp end declare target
