/* XSBench-style driver: the command line, the simulation and its report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include "XSbench_header.h"

static double get_time(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return tv.tv_sec + tv.tv_usec * 1e-6;
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

    free_simulation_data(&SD);
    return 0;
}
