/* Time steps as `target teams distribute` iterations, each a `parallel for`
 * with a max reduction over the grid (the control-loop scheme), and
 * lastprivate on the distribute: after the loop, the step variable and the
 * peak recorded by the team master are those of the last step, whichever team
 * ran it. The parallel regions inside the body have lastprivate bookkeeping of
 * their own, which must not take the place of the distribute's. */
#include <stdio.h>

#define STEPS 24
#define CELLS 200

static double field[STEPS][CELLS];
static double peaks[STEPS];

int main(void)
{
    int step = -1, cell;
    double last_peak = -1.0;

    for (step = 0; step < STEPS; step++)
        for (cell = 0; cell < CELLS; cell++)
            field[step][cell] = (double) ((step * 13 + cell * 29) % 97) / 4.0;
    step = -1;

#pragma omp target teams distribute lastprivate(step, last_peak) thread_limit(96) \
        map(to: field) map(from: peaks) map(tofrom: step, last_peak)
    for (step = 0; step < STEPS; step++) {
        double peak = 0.0;
        int k;
#pragma omp parallel for reduction(max: peak)
        for (k = 0; k < CELLS; k++) {
            double v = field[step][k] * (1.0 + step % 3);
            if (v > peak)
                peak = v;
        }
        peaks[step] = peak;
        last_peak = peak;
    }

    printf("after the steps: step = %d, last_peak = %.2f\n", step, last_peak);
    printf("peaks[0] %.2f peaks[7] %.2f peaks[23] %.2f\n", peaks[0], peaks[7], peaks[STEPS - 1]);
    return 0;
}
