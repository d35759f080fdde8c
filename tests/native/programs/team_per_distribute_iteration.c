/* Time steps as `teams distribute` iterations, each with serial code around a `parallel
 * for` (the control loop's shape), split and combined: the team's threads share a step's
 * cells, not the steps, so the launch has a team per step. A `distribute parallel for`
 * beside them shares its iterations among the threads: a team per block of them. */
#include <stdio.h>

#define STEPS 24
#define CELLS 200

int main(void)
{
    static double field[STEPS][CELLS], peaks[STEPS], sums[STEPS * CELLS];
    int step, cell;
    for (step = 0; step < STEPS; step++)
        for (cell = 0; cell < CELLS; cell++)
            field[step][cell] = (double) ((step * 13 + cell * 29) % 97);

#pragma omp target teams distribute thread_limit(96) map(to: field) map(from: peaks)
    for (step = 0; step < STEPS; step++) {
        double peak = 0.0;
#pragma omp parallel for reduction(max: peak)
        for (cell = 0; cell < CELLS; cell++)
            peak = field[step][cell] > peak ? field[step][cell] : peak;
        peaks[step] = peak;
    }

#pragma omp target map(tofrom: peaks) map(to: field)
#pragma omp teams thread_limit(64)
#pragma omp distribute
    for (step = 0; step < STEPS; step++) {
        double total = 0.0;
#pragma omp parallel for reduction(+: total)
        for (cell = 0; cell < CELLS; cell++)
            total += field[step][cell];
        peaks[step] += total / CELLS;
    }

#pragma omp target teams distribute parallel for thread_limit(96) map(to: field) map(from: sums)
    for (cell = 0; cell < STEPS * CELLS; cell++)
        sums[cell] = field[cell / CELLS][cell % CELLS] * 2.0;

    printf("%.2f %.2f %.2f\n", peaks[0], peaks[STEPS - 1], sums[STEPS * CELLS - 1]);
    return 0;
}
