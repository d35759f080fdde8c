/* bench/host: `taskloop grainsize(g)` over an irregular loop: the number of Collatz
 * steps of every start value in [first, first + n). The steps of neighbouring values
 * differ widely (from a few to hundreds), so equal chunks cost unequal time.
 *
 *     taskloop_collatz [n [grainsize [repetitions]]]
 *
 * Prints the best repetition's time ("timing:") and a checksum of the step counts. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int collatz_steps(unsigned long x) {
    int steps = 0;
    while (x != 1) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        steps++;
    }
    return steps;
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 2000000;
    long grainsize = argc > 2 ? atol(argv[2]) : 1000;
    int repetitions = argc > 3 ? atoi(argv[3]) : 3;
    const unsigned long first = 1000001;
    int *steps = malloc(n * sizeof(int));
    if (!steps) {
        fprintf(stderr, "taskloop_collatz: cannot allocate %ld ints\n", n);
        return 1;
    }

    double best = 1e30;
    for (int r = 0; r < repetitions; r++) {
        double start = omp_get_wtime();
#pragma omp parallel
#pragma omp single
#pragma omp taskloop grainsize(grainsize)
        for (long i = 0; i < n; i++)
            steps[i] = collatz_steps(first + (unsigned long)i);
        double seconds = omp_get_wtime() - start;
        if (seconds < best)
            best = seconds;
    }

    long total = 0;
    int longest = 0;
    for (long i = 0; i < n; i++) {
        total += steps[i];
        if (steps[i] > longest)
            longest = steps[i];
    }
    printf("threads: %d\n", omp_get_max_threads());
    printf("timing: taskloop best %.6f s\n", best);
    printf("timing: %.1f Msteps/s\n", (double)total / best * 1e-6);
    printf("checksum: %ld steps, longest %d\n", total, longest);
    free(steps);
    return 0;
}
