/* The event-based simulation: one target region over all lookups, calling
 * the declare target functions of xs_kernel.c. */
#include "XSbench_header.h"

/* ------------------------------------------------------------ the event kernel */
void run_event_based_simulation(Inputs in, SimulationData SD)
{
    int i;
#pragma omp target teams distribute parallel for \
    map(to: SD.max_num_nucs) \
    map(to: SD.num_nucs[:SD.length_num_nucs]) \
    map(to: SD.concs[:SD.length_concs]) \
    map(to: SD.mats[:SD.length_mats]) \
    map(to: SD.nuclide_grid[:SD.length_nuclide_grid]) \
    map(from: SD.verification[:SD.length_verification])
    for (i = 0; i < in.lookups; i++) {
        unsigned long long seed = fast_forward_LCG(in.seed, 2ULL * i);
        double p_energy = LCG_random_double(&seed);
        int mat = pick_mat(&seed);
        double macro_xs_vector[N_XS];
        double max = -1.0;
        int max_idx = 0, j;
        calculate_macro_xs(p_energy, mat, in.n_gridpoints, SD.num_nucs, SD.concs,
                           SD.nuclide_grid, SD.mats, macro_xs_vector, SD.max_num_nucs);
        for (j = 0; j < N_XS; j++)
            if (macro_xs_vector[j] > max) {
                max = macro_xs_vector[j];
                max_idx = j;
            }
        SD.verification[i] = max_idx + 1;
    }
}
