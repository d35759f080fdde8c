/* A ledger of long double accumulators updated with every form of `#pragma omp atomic`
 * (read, write, update, capture, the 5.1 compare) in a host parallel loop and in target
 * regions (which run on the host on every device: long double has no GPU type). Every
 * term is a multiple of 1/64, so the sums are exact in any order and the output does not
 * depend on the schedule. gcc takes a global lock (GOMP_atomic_start); omp2gpu swaps the
 * 16 bytes with cmpxchg16b. */
#include <stdio.h>
#include <stdlib.h>

#define N 4096

struct ledger {
    long double total;      /* updated by += */
    long double scaled;     /* updated by *= via a capture */
    long double peak;       /* maximum via atomic compare */
    long double last;       /* written, read back */
    long tickets;
};

static long double term(int i) { return (long double)(i % 97) / 64.0L; }

int main(void)
{
    struct ledger led = {0.0L, 1.0L, -1.0L, 0.0L, 0};
    long double captured_sum = 0.0L;

    #pragma omp parallel for reduction(+:captured_sum)
    for (int i = 0; i < N; i++) {
        long double before;
        #pragma omp atomic capture
        { before = led.total; led.total += term(i); }
        captured_sum += before >= 0.0L;      /* always 1: counts captures */
        #pragma omp atomic compare
        if (led.peak < term(i)) { led.peak = term(i); }
        #pragma omp atomic update
        led.tickets++;
    }
    printf("host total %.6Lf peak %.6Lf captures %.0Lf tickets %ld\n",
           led.total, led.peak, captured_sum, led.tickets);

    /* Doubling then halving 10 times each leaves scaled at 1 exactly. */
    #pragma omp parallel for
    for (int i = 0; i < 20; i++) {
        long double seen;
        if (i % 2 == 0) {
            #pragma omp atomic capture
            seen = led.scaled *= 2.0L;
        } else {
            #pragma omp atomic capture
            { led.scaled /= 2.0L; seen = led.scaled; }
        }
        (void)seen;
    }
    printf("host scaled %.6Lf\n", led.scaled);

    long double device_total = 0.0L, device_last = 0.0L, swapped_out = 0.0L;
    #pragma omp target teams distribute parallel for map(tofrom: device_total, swapped_out)
    for (int i = 0; i < N; i++) {
        #pragma omp atomic
        device_total += term(i) * 2.0L;
        long double old;
        #pragma omp atomic capture
        { old = swapped_out; swapped_out = 0.5L; }
        (void)old;
    }
    #pragma omp target map(tofrom: device_last, device_total)
    {
        #pragma omp atomic write
        device_last = 0.25L * device_total;
        long double seen;
        #pragma omp atomic read
        seen = device_last;
        #pragma omp atomic compare
        if (device_total == seen * 4.0L) { device_total = -device_total; }
    }
    printf("device total %.6Lf last %.6Lf swapped %.6Lf\n", device_total, device_last, swapped_out);
    return led.total * 2.0L == -device_total ? EXIT_SUCCESS : EXIT_FAILURE;
}
