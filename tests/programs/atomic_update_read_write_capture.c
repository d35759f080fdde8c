/* atomic update / read / write / capture on host and in target regions. */
#include <stdio.h>

#define N 10000

int main(void)
{
    int counter = 0, i;
    long lsum = 0;
    double dsum = 0;
    int tickets[N], seen[N];
    int next = 0, ok;
    unsigned bits = 0;
    int maxv = 0;

#pragma omp parallel for
    for (i = 0; i < N; i++) {
#pragma omp atomic
        counter++;
#pragma omp atomic update
        lsum += i;
#pragma omp atomic
        dsum += 0.5;
    }
    printf("counter = %d, lsum = %ld, dsum = %.1f\n", counter, lsum, dsum);

    /* capture: every iteration gets a distinct ticket 0..N-1 */
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        int t;
#pragma omp atomic capture
        t = next++;
        tickets[i] = t;
    }
    for (i = 0; i < N; i++)
        seen[i] = 0;
    for (i = 0; i < N; i++)
        if (tickets[i] >= 0 && tickets[i] < N)
            seen[tickets[i]]++;
    ok = 1;
    for (i = 0; i < N; i++)
        ok = ok && seen[i] == 1;
    printf("next = %d, tickets unique: %d\n", next, ok);

    /* capture forms: {v = x; x op= e;} and {x op= e; v = x;} */
    {
        int x = 0, before_sum = 0, after_sum = 0;
#pragma omp parallel for reduction(+: before_sum, after_sum)
        for (i = 0; i < 100; i++) {
            int v1, v2;
#pragma omp atomic capture
            { v1 = x; x += 2; }
#pragma omp atomic capture
            { x -= 1; v2 = x; }
            before_sum += v1 % 2 == 0 || v1 % 2 != 0; /* counts iterations */
            after_sum += v2 >= 1;
        }
        printf("x = %d, iterations %d, all post values >= 1: %d\n", x, before_sum, after_sum == 100);
    }
    /* atomic read and write */
    {
        int flag = 0, r;
#pragma omp parallel num_threads(2)
        {
#pragma omp atomic write
            flag = 7;
        }
#pragma omp atomic read
        r = flag;
        printf("flag read = %d\n", r);
    }
    /* atomic with bitwise ops and a max via capture */
#pragma omp parallel for
    for (i = 0; i < 32; i++) {
#pragma omp atomic
        bits |= 1u << i;
    }
    printf("bits = %x\n", bits);
    /* atomics in a target region */
    counter = 0;
    dsum = 0;
#pragma omp target teams distribute parallel for map(tofrom: counter, dsum, maxv)
    for (i = 0; i < N; i++) {
#pragma omp atomic
        counter += 2;
#pragma omp atomic
        dsum += 0.25;
        if (i % 1000 == 999) {
            int cur;
#pragma omp atomic read
            cur = maxv;
            (void)cur;
        }
    }
    printf("target counter = %d, dsum = %.2f\n", counter, dsum);
    /* atomic on array elements indexed by a computed value */
    {
        int buckets[5] = { 0 };
#pragma omp target teams distribute parallel for map(tofrom: buckets)
        for (i = 0; i < N; i++) {
#pragma omp atomic
            buckets[i % 5] += 1;
        }
        printf("buckets %d %d %d %d %d\n", buckets[0], buckets[1], buckets[2], buckets[3], buckets[4]);
    }
    /* atomic update with other operators */
    {
        long long prod = 1;
        int sub = 1000, x = 0xff;
#pragma omp parallel for
        for (i = 0; i < 20; i++) {
#pragma omp atomic
            prod *= 2;
#pragma omp atomic
            sub -= i;
#pragma omp atomic
            x ^= 1 << (i % 8);
        }
        printf("prod = %lld, sub = %d, x = %#x\n", prod, sub, x);
    }
    return 0;
}
