/* Two OpenMP threads call exit(3) at once, after target regions ran: the program ends with
 * status 3 every time, as gcc's binary does (exit handlers of the runtime, its completion
 * poller and the CPU device's workers must not crash a process that is going away).
 * Usage: exit_from_two_threads MODE
 *   after   both threads exit after a target region ran on the initial thread
 *   inside  thread 1 is launching target regions (a loop) when thread 0 exits
 *   nowait  both threads leave `target nowait` kernels running, then exit */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

#define N 4096

static double field[2][N];

static void relax(double *x, int n) {
    #pragma omp target teams distribute parallel for map(tofrom: x[0:n])
    for (int i = 0; i < n; i++)
        x[i] = 0.5 * x[i] + 1.0;
}

static void relax_later(double *x, int n) {
    #pragma omp target teams distribute parallel for map(tofrom: x[0:n]) nowait
    for (int i = 0; i < n; i++)
        x[i] = 0.5 * x[i] + 1.0;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "after";
    int launched = 0;
    relax(field[0], N);
    printf("field[0][0] = %g\n", field[0][0]);
    fflush(stdout);
    #pragma omp parallel num_threads(2) shared(launched)
    {
        int me = omp_get_thread_num();
        if (strcmp(mode, "inside") == 0) {
            if (me == 1)
                for (int step = 0; step < 100000; step++) {
                    relax(field[1], N);
                    #pragma omp atomic write
                    launched = 1;
                }
            else {
                int seen = 0;
                while (!seen) {
                    #pragma omp atomic read
                    seen = launched;
                }
            }
        }
        if (strcmp(mode, "nowait") == 0)
            for (int k = 0; k < 4; k++) relax_later(field[me], N);
        exit(3);
    }
    return 0;
}
