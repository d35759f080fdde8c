/* bench/lulesh/traffic_model.c: the memory traffic of the monotonic-Q sweep's fused launch,
 * worked out without a GPU, to ask whether the order of a fused launch's parts matters
 * (docs/async.md, "Fused launches").
 *
 *     cc -O2 -I examples/lulesh bench/lulesh/traffic_model.c -o traffic_model
 *     ./traffic_model [SIZE] [REGIONS] [L2_MB]        (defaults: 100 11 50)
 *
 * It builds the domain as examples/lulesh does (lulesh_domain.h) and replays the loads and
 * stores of examples/lulesh/lulesh_monoq_element.h, every branch taken (interior elements),
 * block after block of 256 list entries, through a model of the L2: 128-byte lines of four
 * 32-byte sectors, 16 ways, least recently used. Two orders of the blocks:
 *   parts one after another  what the fused kernel runs (block b: the last part whose first
 *                            block is at most b), and CUDA C's one launch over the lists;
 *   parts interleaved        each block from the part furthest behind its share, so that every
 *                            region's list advances over the domain together.
 * Printed: DRAM sectors fetched per element in each order (a second sweep, the first one
 * warming the cache), and the sector requests a warp makes (its lanes' distinct sectors
 * summed over its accesses) against 32 consecutive elements'. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lulesh_domain.h"

#define WAYS 16
#define BLOCK 256
#define WARP 32

typedef struct {
    long sets;
    unsigned long long *tags, *last_use, clock;
    unsigned char *valid;           /* per line: its sectors held */
    long fetched;                   /* sectors read from DRAM */
} Cache;

static void cache_touch(Cache *c, unsigned long long address)
{
    unsigned long long line = address >> 7, tag = line + 1;
    unsigned sector = (unsigned)(address >> 5) & 3;
    long set = (long)((line * 0x9E3779B97F4A7C15ull) >> 20) % c->sets, way, victim = 0;
    unsigned long long *tags = c->tags + set * WAYS, *used = c->last_use + set * WAYS;
    unsigned char *valid = c->valid + set * WAYS;

    c->clock++;
    for (way = 0; way < WAYS; way++)
        if (tags[way] == tag) {
            used[way] = c->clock;
            if (!(valid[way] >> sector & 1)) {
                valid[way] |= (unsigned char)(1u << sector);
                c->fetched++;
            }
            return;
        }
    for (way = 1; way < WAYS; way++)
        if (used[way] < used[victim])
            victim = way;
    tags[victim] = tag;
    used[victim] = c->clock;
    valid[victim] = (unsigned char)(1u << sector);
    c->fetched++;
}

/* The arrays, each at its own gigabyte of a made-up address space. */
enum { LIST, BC, NEIGHBOURS, DELV = NEIGHBOURS + 6, DELX = DELV + 3, VDOV = DELX + 3, MASS, VOLO, VNEW, QQ, QL };
#define AT(array, index, size) (((unsigned long long)(array) + 1) << 30) + (unsigned long long)(index) * (size)

static const Domain *domain;

/* One element's accesses, in the order the kernel makes them, into `out`; how many. */
static int element_accesses(int position, unsigned long long *out)
{
    const Domain *d = domain;
    const int e = d->regElemlist[position];
    const int *neighbour[6] = {d->lxim, d->lxip, d->letam, d->letap, d->lzetam, d->lzetap};
    int n = 0, k;

    out[n++] = AT(LIST, position, 4);
    out[n++] = AT(BC, e, 4);
    for (k = 0; k < 3; k++)
        out[n++] = AT(DELV + k, e, 8);
    for (k = 0; k < 6; k++) {
        out[n++] = AT(NEIGHBOURS + k, e, 4);
        out[n++] = AT(DELV + k / 2, neighbour[k][e], 8);
    }
    for (k = DELX; k <= QL; k++)
        out[n++] = AT(k, e, 8);
    return n;
}

/* an element's accesses: 8 of 4-byte words, 18 of doubles */
#define INT_ACCESSES 8
#define ACCESSES 26

/* A block of list entries [first, first + count): warp by warp, one access at a time for
 * the warp's lanes, as the GPU issues them. */
static void run_block(Cache *c, int first, int count)
{
    unsigned long long addresses[WARP][ACCESSES];
    int warp, lane, access, n = 0;

    for (warp = 0; warp < count; warp += WARP) {
        int lanes = count - warp < WARP ? count - warp : WARP;
        for (lane = 0; lane < lanes; lane++)
            n = element_accesses(first + warp + lane, addresses[lane]);
        for (access = 0; access < n; access++)
            for (lane = 0; lane < lanes; lane++)
                cache_touch(c, addresses[lane][access]);
    }
}

static long blocks_of(int r) { return (domain->regElemSize[r] + BLOCK - 1) / BLOCK; }

static void run_block_of(Cache *c, int r, long block)
{
    long first = block * BLOCK, left = domain->regElemSize[r] - first;
    run_block(c, domain->regStart[r] + (int)first, (int)(left < BLOCK ? left : BLOCK));
}

static double sweep_sectors(double l2_mb, int interleaved)
{
    Cache c = {0};
    long pass, r, b, total = 0, *next = calloc((size_t)domain->numReg, sizeof(long));

    c.sets = (long)(l2_mb * 1024 * 1024 / 128 / WAYS);
    c.tags = calloc((size_t)(c.sets * WAYS), sizeof *c.tags);
    c.last_use = calloc((size_t)(c.sets * WAYS), sizeof *c.last_use);
    c.valid = calloc((size_t)(c.sets * WAYS), 1);
    for (r = 0; r < domain->numReg; r++)
        total += blocks_of((int)r);
    for (pass = 0; pass < 2; pass++) {          /* the first sweep warms the cache */
        c.fetched = 0;
        if (!interleaved) {
            for (r = 0; r < domain->numReg; r++)
                for (b = 0; b < blocks_of((int)r); b++)
                    run_block_of(&c, (int)r, b);
            continue;
        }
        memset(next, 0, (size_t)domain->numReg * sizeof(long));
        for (b = 0; b < total; b++) {
            int behind = -1;
            double least = 2.0;
            for (r = 0; r < domain->numReg; r++)
                if (next[r] < blocks_of((int)r) && (next[r] + 0.5) / blocks_of((int)r) < least) {
                    least = (next[r] + 0.5) / blocks_of((int)r);
                    behind = (int)r;
                }
            run_block_of(&c, behind, next[behind]++);
        }
    }
    free(next); free(c.tags); free(c.last_use); free(c.valid);
    return (double)c.fetched / domain->numElem;
}

static int by_value(const void *a, const void *b)
{
    unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
    return x < y ? -1 : x > y;
}

/* Sector requests per warp: for each access, the distinct sectors of the warp's lanes. */
static double warp_sector_requests(void)
{
    unsigned long long addresses[WARP][ACCESSES], sectors[WARP];
    long requests = 0, warps = 0;
    int r, warp, lane, access, n = 0;

    for (r = 0; r < domain->numReg; r++)
        for (warp = 0; warp < domain->regElemSize[r]; warp += WARP, warps++) {
            int lanes = domain->regElemSize[r] - warp < WARP ? domain->regElemSize[r] - warp : WARP;
            for (lane = 0; lane < lanes; lane++)
                n = element_accesses(domain->regStart[r] + warp + lane, addresses[lane]);
            for (access = 0; access < n; access++) {
                for (lane = 0; lane < lanes; lane++)
                    sectors[lane] = addresses[lane][access] >> 5;
                qsort(sectors, (size_t)lanes, sizeof sectors[0], by_value);
                requests++;
                for (lane = 1; lane < lanes; lane++)
                    requests += sectors[lane] != sectors[lane - 1];
            }
        }
    return (double)requests / warps;
}

int main(int argc, char **argv)
{
    int size = argc > 1 ? atoi(argv[1]) : 100, regions = argc > 2 ? atoi(argv[2]) : 11;
    double l2_mb = argc > 3 ? atof(argv[3]) : 50.0;
    Domain d;

    if (size < 1 || size > 400 || (regions != 1 && regions != 11) || l2_mb <= 0) {
        fprintf(stderr, "usage: %s [SIZE 1-400] [REGIONS 1|11] [L2_MB]\n", argv[0]);
        return 2;
    }
    lulesh_build_domain(&d, size, regions);
    domain = &d;
    printf("size %d, %d regions, L2 %g MB\n", size, regions, l2_mb);
    printf("DRAM sectors per element, parts one after another: %.2f\n", sweep_sectors(l2_mb, 0));
    printf("DRAM sectors per element, parts interleaved: %.2f\n", sweep_sectors(l2_mb, 1));
    /* 32 consecutive elements: an access of 4-byte words takes 4 sectors, of doubles 8 */
    printf("sector requests per warp: %.1f (32 consecutive elements: %d)\n", warp_sector_requests(),
           INT_ACCESSES * 4 + (ACCESSES - INT_ACCESSES) * 8);
    lulesh_free_domain(&d);
    return 0;
}
