/* A lock-free work queue in the style of a task-farm code, written with GCC's
 * __atomic_* and __sync_* builtins instead of OpenMP constructs: workers claim
 * jobs with a fetch-and-add on the queue head, fold results into histogram bins,
 * track the largest result with a compare-exchange loop and a seen-mask with
 * fetch-or, on the host (a parallel region, with a test-and-set spin lock around
 * a two-field record) and in target regions. Every result is order-independent. */
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>

#define JOBS 5000
#define BINS 16

struct queue {
    long head;                       /* next job to claim */
    unsigned long long seen;         /* bit (job % 64) set once any such job ran */
    long max_cost;                   /* largest cost seen */
    unsigned short small_bins[BINS]; /* 2-byte counters */
    int bins[BINS];
    long total;
};

static long cost_of(long job) { return (job * 7919L) % 1009L; }

static void reset(struct queue *q)
{
    q->head = 0; q->seen = 0; q->max_cost = -1; q->total = 0;
    for (int b = 0; b < BINS; b++) { q->bins[b] = 0; q->small_bins[b] = 0; }
}

static void report(const char *where, const struct queue *q)
{
    long sum = 0;
    for (int b = 0; b < BINS; b++) sum += q->bins[b] + q->small_bins[b];
    printf("%-7s total %ld max %ld seen %016llx bins", where, q->total, q->max_cost, q->seen);
    for (int b = 0; b < BINS; b += 4) printf(" %d/%u", q->bins[b], (unsigned)q->small_bins[b]);
    printf(" (sum %ld)\n", sum);
}

static void raise_max(long *slot, long value)
{
    long seen = __atomic_load_n(slot, __ATOMIC_RELAXED);
    while (seen < value
           && !__atomic_compare_exchange_n(slot, &seen, value, true, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
        ;
}

int main(void)
{
    struct queue q;
    reset(&q);
    int lock = 0;
    long pairs_a = 0, pairs_b = 0;       /* updated together under the spin lock */

    #pragma omp parallel shared(q, lock, pairs_a, pairs_b)
    {
        for (;;) {
            long job = __atomic_fetch_add(&q.head, 1, __ATOMIC_ACQ_REL);
            if (job >= JOBS) break;
            long cost = cost_of(job);
            __atomic_add_fetch(&q.bins[cost % BINS], 1, __ATOMIC_RELAXED);
            __sync_fetch_and_add(&q.small_bins[job % BINS], (unsigned short)1);
            __sync_add_and_fetch(&q.total, cost);
            __atomic_fetch_or(&q.seen, 1ULL << (job % 64), __ATOMIC_RELAXED);
            raise_max(&q.max_cost, cost);
            if (job % 10 == 0) {
                while (__sync_lock_test_and_set(&lock, 1))
                    while (__atomic_load_n(&lock, __ATOMIC_RELAXED)) ;
                pairs_a += 1; pairs_b += 2;
                __sync_lock_release(&lock);
            }
        }
    }
    report("host", &q);
    printf("host    pairs %ld %ld lock %d\n", pairs_a, pairs_b, __atomic_load_n(&lock, __ATOMIC_SEQ_CST));

    reset(&q);
    long claimed_twice = 0;
    #pragma omp target teams distribute parallel for map(tofrom: q, claimed_twice)
    for (long job = 0; job < JOBS; job++) {
        long cost = cost_of(job);
        long ticket = __atomic_fetch_add(&q.head, 1, __ATOMIC_RELAXED);
        if (ticket >= JOBS) __sync_fetch_and_add(&claimed_twice, 1);
        __atomic_fetch_add(&q.bins[cost % BINS], 1, __ATOMIC_SEQ_CST);
        __atomic_add_fetch(&q.small_bins[job % BINS], 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&q.total, cost, __ATOMIC_RELAXED);
        __sync_fetch_and_or(&q.seen, 1ULL << (job % 64));
        raise_max(&q.max_cost, cost);
    }
    report("device", &q);

    /* One thread's handshakes on the device: exchange, compare-and-swap, generic forms. */
    long slots[4] = {10, 20, 30, 40};
    int flags = 0;
    double weight = 0.5;
    #pragma omp target map(tofrom: slots, flags, weight)
    {
        long old = __atomic_exchange_n(&slots[0], 11, __ATOMIC_ACQ_REL);
        long expect = 20;
        bool swapped = __atomic_compare_exchange_n(&slots[1], &expect, old + 11, false,
                                                   __ATOMIC_SEQ_CST, __ATOMIC_ACQUIRE);
        long prior = __sync_val_compare_and_swap(&slots[2], 30, 33);
        if (__sync_bool_compare_and_swap(&slots[3], 41, 0)) slots[3] = -1;
        double w = 2.25, was;
        __atomic_exchange(&weight, &w, &was, __ATOMIC_SEQ_CST);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        __atomic_store_n(&flags, (swapped ? 1 : 0) | (prior == 30 ? 2 : 0) | (was == 0.5 ? 4 : 0),
                         __ATOMIC_RELEASE);
        __atomic_fetch_nand(&flags, 0, __ATOMIC_RELAXED);     /* ~(x & 0): all ones */
        __atomic_xor_fetch(&flags, ~7, __ATOMIC_RELAXED);      /* back to the three bits */
    }
    printf("slots %ld %ld %ld %ld flags %d weight %.2f\n", slots[0], slots[1], slots[2], slots[3],
           __atomic_load_n(&flags, __ATOMIC_ACQUIRE), weight);
    printf("lock-free long %d, 2-byte %d, claimed twice %ld\n",
           __atomic_always_lock_free(sizeof(long), 0), __atomic_is_lock_free(2, 0), claimed_twice);
    return q.head == JOBS ? EXIT_SUCCESS : EXIT_FAILURE;
}
