/* single with copyprivate: one thread reads a configuration (here: parses the command
 * line and derives a struct of parameters) and broadcasts it to every thread's private
 * copies, which then work with it; single with nowait; a single inside a helper. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

struct config {
    char name[16];
    int size;
    double tolerance;
    int weights[4];
};

static int parsed = 0;

static void parse(struct config *c, int argc, char **argv)
{
    memset(c, 0, sizeof *c);
    strncpy(c->name, argc > 1 ? argv[1] : "none", sizeof c->name - 1);
    c->size = argc > 2 ? atoi(argv[2]) : 10;
    c->tolerance = 1.0 / (c->size + 1);
    for (int k = 0; k < 4; k++)
        c->weights[k] = c->size * (k + 1);
    parsed++;
}

/* an orphaned single: the calling team's threads all get the seed */
static unsigned next_seed(unsigned previous)
{
    unsigned seed;
#pragma omp single copyprivate(seed)
    seed = previous * 1103515245u + 12345u;
    return seed;
}

int main(int argc, char **argv)
{
    int agree = 0, threads = 0, seeds_agree = 0;
    long checksum = 0;

#pragma omp parallel reduction(+:agree, checksum, seeds_agree)
    {
        struct config c;
        int scale;
#pragma omp single copyprivate(c, scale)
        {
            parse(&c, argc, argv);
            scale = 3;
        }
        /* every thread has the broadcast values in its own copies */
        agree += strcmp(c.name, "alpha") == 0 && c.size == 42 && c.weights[3] == 168 && scale == 3;
#pragma omp for
        for (int i = 0; i < c.size * 10; i++)
            checksum += (long)i * c.weights[i % 4] * scale;

        unsigned s1 = next_seed(7), s2 = next_seed(s1);
        unsigned mine = s2;
#pragma omp single nowait
        threads = omp_get_num_threads();
        unsigned first;
#pragma omp single copyprivate(first)
        first = mine;
        seeds_agree += first == mine;
    }
    printf("config parsed %d time(s), every thread agrees: %d\n", parsed, agree == threads);
    printf("seeds agree in every thread: %d\n", seeds_agree == threads);
    printf("checksum %ld\n", checksum);
    return 0;
}
