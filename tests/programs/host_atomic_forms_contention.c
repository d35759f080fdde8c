/* Every form of atomic (update, read, write, capture in both orders and the structured
 * block forms) hammered by all threads at once on int, long, unsigned and double
 * counters; capture hands out unique tickets, so the tickets are a permutation. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define ROUNDS 20000

struct counters {
    int hits;
    long bytes;
    unsigned mask_ops;
    double energy;
    int next_ticket;
    int max_seen;
};

static struct counters c;
static int ticket_owner[ROUNDS];

int main(void)
{
    int duplicate = 0;
    long read_sum = 0;

#pragma omp parallel reduction(+:read_sum) reduction(||:duplicate)
    {
#pragma omp for schedule(dynamic, 64)
        for (int i = 0; i < ROUNDS; i++) {
#pragma omp atomic
            c.hits++;
#pragma omp atomic update
            c.bytes += i % 7;
#pragma omp atomic
            c.mask_ops ^= (unsigned)i;
#pragma omp atomic
            c.energy += 0.5;
            int ticket;
#pragma omp atomic capture
            ticket = c.next_ticket++;
            if (ticket_owner[ticket] != 0)
                duplicate = 1;
            ticket_owner[ticket] = i + 1;
            int seen;
#pragma omp atomic read
            seen = c.hits;
            read_sum += seen > 0;
        }

        /* capture forms: old value, new value, structured blocks */
#pragma omp for
        for (int i = 0; i < 1000; i++) {
            int before, after;
#pragma omp atomic capture
            { before = c.max_seen; c.max_seen += 2; }
#pragma omp atomic capture
            after = c.max_seen -= 1;
#pragma omp atomic capture
            { c.hits = c.hits + 1; after = c.hits; }
            if (before < 0 || after < 1)
                duplicate = 1;
        }
    }
    int permutation = 1;
    for (int t = 0; t < ROUNDS; t++)
        permutation = permutation && ticket_owner[t] != 0;
    printf("hits %d bytes %ld mask %u energy %.1f\n", c.hits, c.bytes, c.mask_ops, c.energy);
    printf("tickets %d, a permutation %d, duplicate %d\n", c.next_ticket, permutation, duplicate);
    printf("max_seen %d, reads saw a positive count %ld times\n", c.max_seen, read_sum);

    /* atomic write from every thread: the value is one of those written, never torn */
    long word = 0;
#pragma omp parallel
    {
        long mine = 0x0101010101010101L * (omp_get_thread_num() % 4 + 1);
#pragma omp atomic write
        word = mine;
    }
    long byte = word & 0xff;
    printf("atomic write whole: %d\n", word == 0x0101010101010101L * byte && byte >= 1 && byte <= 4);
    return 0;
}
