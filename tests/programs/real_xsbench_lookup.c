/* XSBench-style macroscopic cross-section lookups (a proxy for the Monte Carlo
 * neutron transport kernel of OpenMC): a nuclide energy grid per isotope,
 * materials as lists of nuclides with concentrations, and random
 * (energy, material) lookups on the device. The simulation data is a struct of
 * arrays mapped member by member, as the ANL proxy apps map it.
 *
 * Command line: [-l lookups] [-g gridpoints] [-n nuclides] [other words are
 * ignored, a number among them becomes the seed]. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

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

static double get_time(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return tv.tv_sec + tv.tv_usec * 1e-6;
}

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

/* ------------------------------------------------------------ initialisation */
static int compare_grid_points(const void *a, const void *b)
{
    double ea = ((const NuclideGridPoint *) a)->energy, eb = ((const NuclideGridPoint *) b)->energy;
    return (ea > eb) - (ea < eb);
}

static SimulationData grid_init(const Inputs *in)
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

static void read_command_line(int argc, char **argv, Inputs *in)
{
    int i;
    in->n_isotopes = 68;
    in->n_gridpoints = 400;
    in->lookups = 20000;
    in->seed = STARTING_SEED;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-l") == 0 && i + 1 < argc)
            in->lookups = atoi(argv[++i]);
        else if (strcmp(argv[i], "-g") == 0 && i + 1 < argc)
            in->n_gridpoints = atol(argv[++i]);
        else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
            in->n_isotopes = atoi(argv[++i]);
        else if (argv[i][0] >= '0' && argv[i][0] <= '9')
            in->seed = STARTING_SEED + strtoull(argv[i], NULL, 10);
    }
}

/* ------------------------------------------------------------ the event kernel */
static void run_event_based_simulation(Inputs in, SimulationData SD)
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

int main(int argc, char **argv)
{
    Inputs in;
    SimulationData SD;
    unsigned long verification_scalar = 0;
    unsigned long histogram[N_XS + 1] = {0};
    double start, end;
    int i;

    read_command_line(argc, argv, &in);
    printf("Isotopes: %d, gridpoints per nuclide: %ld, lookups: %d\n", in.n_isotopes, in.n_gridpoints,
           in.lookups);
    SD = grid_init(&in);
    printf("Materials: %d, largest material: %d nuclides\n", SD.length_num_nucs, SD.max_num_nucs);

    start = get_time();
    run_event_based_simulation(in, SD);
    end = get_time();

    for (i = 0; i < in.lookups; i++) {
        verification_scalar += SD.verification[i];
        histogram[SD.verification[i]]++;
    }
    verification_scalar %= 999983;
    for (i = 1; i <= N_XS; i++)
        printf("largest channel %d: %lu lookups\n", i, histogram[i]);
    printf("Verification checksum: %lu\n", verification_scalar);
    printf("timing: %.3f s, %.0f lookups/s\n", end - start, in.lookups / (end - start + 1e-9));

    free(SD.nuclide_grid);
    free(SD.num_nucs);
    free(SD.mats);
    free(SD.concs);
    free(SD.verification);
    return 0;
}
