/* A producer/consumer pipeline between two threads through a bounded ring buffer,
 * synchronised only by flush and atomic reads and writes of the head and tail indices
 * (no locks, no barriers). With a team of one (an OMP_THREAD_LIMIT of 1, say) the
 * same stages run one after the other. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define SLOTS 4
#define ITEMS 300

struct ring {
    double slot[SLOTS];
    int head;       /* items produced (written by the producer only) */
    int tail;       /* items consumed (written by the consumer only) */
};

static double make_item(int k)
{
    return k * 0.5 + (k % 3);
}

static int load_index(int *where)
{
    int value;
#pragma omp flush
#pragma omp atomic read
    value = *where;
    return value;
}

static void store_index(int *where, int value)
{
#pragma omp flush
#pragma omp atomic write
    *where = value;
#pragma omp flush
}

static void produce(struct ring *r)
{
    for (int k = 0; k < ITEMS; k++) {
        while (k - load_index(&r->tail) >= SLOTS)
            ;   /* full: wait for the consumer */
        r->slot[k % SLOTS] = make_item(k);
        store_index(&r->head, k + 1);
    }
}

static double consume(struct ring *r)
{
    double sum = 0.0;
    for (int k = 0; k < ITEMS; k++) {
        while (load_index(&r->head) <= k)
            ;   /* empty: wait for the producer */
        sum += r->slot[k % SLOTS] * (k + 1);
        store_index(&r->tail, k + 1);
    }
    return sum;
}

/* the same stages without a second thread: produce one, consume one */
static double one_thread(struct ring *r)
{
    double sum = 0.0;
    for (int k = 0; k < ITEMS; k++) {
        r->slot[k % SLOTS] = make_item(k);
        sum += r->slot[k % SLOTS] * (k + 1);
    }
    r->head = r->tail = ITEMS;
    return sum;
}

int main(void)
{
    struct ring r = {{0}, 0, 0};
    double result = 0.0;

#pragma omp parallel num_threads(2) shared(r, result)
    {
        if (omp_get_num_threads() < 2) {
            result = one_thread(&r);
        } else if (omp_get_thread_num() == 0) {
            produce(&r);
        } else {
            result = consume(&r);
        }
    }
    printf("consumed %d of %d items, weighted sum %.2f\n", r.tail, r.head, result);

    /* a one-shot handshake: thread 1 publishes a table, thread 0 waits on a flag */
    int ready = 0;
    double table[8];
#pragma omp parallel num_threads(2) shared(ready, table)
    {
        int me = omp_get_thread_num(), team = omp_get_num_threads();
        if (me == team - 1) {
            for (int i = 0; i < 8; i++)
                table[i] = i * i + 0.25;
            store_index(&ready, 1);
        }
        if (me == 0) {
            while (!load_index(&ready))
                ;
            double s = 0.0;
            for (int i = 0; i < 8; i++)
                s += table[i];
            printf("handshake: table sum %.2f\n", s);
        }
    }
    return 0;
}
