/* Reverse offload (OpenMP 5.0 `target device(ancestor: 1)`): a relaxation run in target
 * regions that reports its progress from the host, the way codes log from inside an
 * offloaded solver: each step's region computes the field's sum and asks the host
 * (ancestor 1) to print it and to record it in a host array, mapped back to the host in
 * the reverse direction. omp2gpu runs a region holding a reverse offload on the host
 * (docs/unified-memory.md), so every line is printed by the host.
 * Expected output: the field starts at i % 7 and each step halves it and adds the step,
 * all exact in binary floating point: step s's sum follows from step s-1's as
 * sum / 2 + s * N. (gcc 12 refuses `requires reverse_offload`.) */
#pragma omp requires reverse_offload
#include <stdio.h>

#define N 64
#define STEPS 5

int main(void) {
    double field[N], sums[STEPS] = {0};
    for (int i = 0; i < N; i++) field[i] = i % 7;
    for (int step = 0; step < STEPS; step++) {
#pragma omp target map(tofrom: field) map(to: step)
        {
            double sum = 0;
            for (int i = 0; i < N; i++) {
                field[i] = field[i] / 2 + step;
                sum += field[i];
            }
#pragma omp target device(ancestor: 1) map(to: sum, step)
            {
                printf("step %d: sum %.4f\n", step, sum);
                sums[step] = sum;
            }
        }
    }
    double check = 0;
    for (int i = 0; i < N; i++) check += i % 7;
    int agree = 1;
    for (int step = 0; step < STEPS; step++) {
        check = check / 2 + step * N;
        agree &= sums[step] == check;
    }
    printf("host log agrees: %s, field[9] = %.4f\n", agree ? "yes" : "no", field[9]);
    return agree ? 0 : 1;
}
