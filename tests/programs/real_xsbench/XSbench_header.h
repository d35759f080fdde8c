/* XSBench-style macroscopic cross-section lookups (a proxy for the Monte Carlo
 * neutron transport kernel of OpenMC), laid out in several source files as
 * XSBench is: this header, main.c (command line, driver, report),
 * grid_init.c (the nuclide grids and materials), xs_kernel.c (the declare
 * target functions a lookup calls) and simulation.c (the target region,
 * which calls functions defined in xs_kernel.c). The simulation data is a
 * struct of arrays mapped member by member, as the ANL proxy apps map it.
 *
 * Command line: [-l lookups] [-g gridpoints] [-n nuclides] [other words are
 * ignored, a number among them becomes the seed]. */
#ifndef XSBENCH_HEADER_H
#define XSBENCH_HEADER_H

#define N_MATERIALS 12
#define N_XS 5
#define STARTING_SEED 1070ULL

typedef struct {
    double energy;
    double total_xs;
    double elastic_xs;
    double absorbtion_xs;
    double fission_xs;
    double nu_fission_xs;
} NuclideGridPoint;

typedef struct {
    int n_isotopes;
    long n_gridpoints;
    int lookups;
    unsigned long long seed;
} Inputs;

typedef struct {
    int *num_nucs;
    int length_num_nucs;
    double *concs;
    int length_concs;
    int *mats;
    int length_mats;
    NuclideGridPoint *nuclide_grid;
    int length_nuclide_grid;
    int max_num_nucs;
    unsigned long *verification;
    int length_verification;
} SimulationData;

/* xs_kernel.c: what a lookup calls on the device (and grid_init.c on the host). */
#pragma omp declare target
double LCG_random_double(unsigned long long *seed);
unsigned long long fast_forward_LCG(unsigned long long seed, unsigned long long n);
int pick_mat(unsigned long long *seed);
long grid_search_nuclide(long n, double quarry, const NuclideGridPoint *A, long low, long high);
void calculate_micro_xs(double p_energy, int nuc, long n_gridpoints,
                        const NuclideGridPoint *nuclide_grids, double *xs_vector);
void calculate_macro_xs(double p_energy, int mat, long n_gridpoints, const int *num_nucs,
                        const double *concs, const NuclideGridPoint *nuclide_grids,
                        const int *mats, double *macro_xs_vector, int max_num_nucs);
#pragma omp end declare target

/* grid_init.c */
SimulationData grid_init(const Inputs *in);
void free_simulation_data(SimulationData *SD);

/* simulation.c */
void run_event_based_simulation(Inputs in, SimulationData SD);

#endif
