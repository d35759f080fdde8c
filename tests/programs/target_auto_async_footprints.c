/* Synchronous target regions in a time-step loop whose kernels may or may not run at
 * once under automatic concurrency (OMP2GPU_AUTO_ASYNC=1, docs/async.md). Per step:
 * two regions on disjoint fields (may overlap), two that only read the same field and
 * write their own (may overlap), a chain where each reads what the last wrote (must
 * not), a region on a section whose pointer lies before the mapped range, the host
 * reading a field back in the middle of the step (`target update from`) and writing
 * another (`target update to`), a reduction, a region writing a declare target global,
 * and one through a pointer held in a mapped struct. Whatever ran at once, the output
 * is the sequential program's. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define STEPS 5

struct fields {
    int n;
    double *pressure, *energy, *volume, *mass, *scratch;
};

#pragma omp declare target
double global_peak;
#pragma omp end declare target

static double checksum(const double *values, int n)
{
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += values[i] * (double)(1 + i % 7);
    return sum;
}

int main(int argc, char **argv)
{
    int n = 20000, option;
    struct fields f;
    double *pressure, *energy, *volume, *mass, *scratch, *inner;
    double host_seen = 0.0, total = 0.0;
    int i, step;

    while ((option = getopt(argc, argv, "n:")) != -1)
        if (option == 'n' && atoi(optarg) > 2)
            n = atoi(optarg);
    f.n = n;
    f.pressure = pressure = malloc(n * sizeof(double));
    f.energy = energy = malloc(n * sizeof(double));
    f.volume = volume = malloc(n * sizeof(double));
    f.mass = mass = malloc(n * sizeof(double));
    f.scratch = scratch = malloc(n * sizeof(double));
    for (i = 0; i < n; i++) {
        pressure[i] = (double)(i % 11) * 0.5;
        energy[i] = 1.0 + (double)(i % 3);
        volume[i] = 2.0 - (double)(i % 4) * 0.125;
        mass[i] = 0.5 + (double)(i % 9) * 0.0625;
        scratch[i] = 0.0;
    }
    inner = energy + 1;           /* a pointer one element into the mapped array */

    #pragma omp target data map(tofrom: pressure[0:n], energy[0:n], volume[0:n], mass[0:n], scratch[0:n])
    {
        for (step = 0; step < STEPS; step++) {
            /* disjoint fields: may run at once */
            #pragma omp target teams distribute parallel for
            for (i = 0; i < n; i++)
                pressure[i] = pressure[i] * 0.75 + 1.0;
            #pragma omp target teams distribute parallel for
            for (i = 0; i < n; i++)
                volume[i] = volume[i] * 0.5 + 0.25;

            /* both read mass, each writes its own field: may run at once */
            #pragma omp target teams distribute parallel for
            for (i = 0; i < n; i++)
                energy[i] = energy[i] + mass[i] * 0.125;
            #pragma omp target teams distribute parallel for
            for (i = 0; i < n; i++)
                scratch[i] = mass[i] * 2.0;

            /* a chain: each reads what the one before wrote */
            #pragma omp target teams distribute parallel for
            for (i = 0; i < n; i++)
                scratch[i] = scratch[i] + pressure[i];
            #pragma omp target teams distribute parallel for
            for (i = 0; i < n; i++)
                mass[i] = 0.5 * mass[i] + 0.001 * scratch[i];
            #pragma omp target teams distribute parallel for
            for (i = 1; i < n - 1; i++)
                pressure[i] = pressure[i] + 0.01 * (mass[i - 1] - mass[i + 1]);

            /* a section through a pointer inside the mapped array */
            #pragma omp target teams distribute parallel for map(tofrom: inner[0:n - 2])
            for (i = 0; i < n - 2; i++)
                inner[i] = inner[i] * 0.5 + volume[i];

            /* the host reads a field back mid-step, and changes another */
            #pragma omp target update from(pressure[0:n], volume[0:n])
            host_seen += checksum(pressure, n);
            volume[step] += 1.0;
            #pragma omp target update to(volume[0:n])

            /* a reduction (its result copied back) and a declare target global */
            #pragma omp target teams distribute parallel for reduction(+: total)
            for (i = 0; i < n; i++)
                total += volume[i] * 1e-3;
            #pragma omp target map(tofrom: global_peak)
            {
                global_peak = 0.0;
                for (i = 0; i < n; i += 97)
                    if (energy[i] > global_peak)
                        global_peak = energy[i];
            }
            /* a declare target global is always present: its map copies nothing */
            #pragma omp target update from(global_peak)

            /* through the pointer a mapped struct holds */
            #pragma omp target teams distribute parallel for map(to: f) map(tofrom: f.scratch[0:n])
            for (i = 0; i < n; i++)
                f.scratch[i] = f.scratch[i] * 0.5 + global_peak;
        }
    }

    printf("pressure %.6f energy %.6f volume %.6f\n", checksum(pressure, n), checksum(energy, n),
           checksum(volume, n));
    printf("mass %.6f scratch %.6f\n", checksum(mass, n), checksum(scratch, n));
    printf("host saw %.6f total %.6f peak %.6f\n", host_seen, total, global_peak);
    free(pressure); free(energy); free(volume); free(mass); free(scratch);
    return 0;
}
