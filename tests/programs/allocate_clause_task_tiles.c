/* Tiled work whose per-task, per-thread and per-section buffers come from an aligned
 * allocator through OpenMP 5.0's allocate clause, as a blocked code asks for buffers its
 * vector loops can assume aligned: tasks (firstprivate tiles), a taskloop and parallel
 * sections (private tiles), a worksharing loop with a predefined allocator, and a target
 * region whose parallel threads take omp_thread_mem_alloc copies. Every buffer's
 * alignment is checked where it is used, and every value printed is an integer. */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define TILE 16

static int misaligned(const void *p, unsigned long alignment) {
    return (uintptr_t)p % alignment != 0;
}

int main(int argc, char **argv) {
    int tiles = 12, opt;
    while ((opt = getopt(argc, argv, "t:")) != -1)
        if (opt == 't')
            tiles = atoi(optarg);
    int n = tiles * TILE;
    long *data = (long *)malloc(n * sizeof(long));
    for (int i = 0; i < n; i++) data[i] = i % 37;

    omp_alloctrait_t traits[2] = {{omp_atk_alignment, 128}, {omp_atk_pool_size, 1 << 20}};
    omp_allocator_handle_t tiled = omp_init_allocator(omp_default_mem_space, 2, traits);
    long tile[TILE];
    long task_sums = 0, loop_sums = 0, section_sums = 0, device_sum = 0;
    int bad = 0;

    /* A task per tile: its firstprivate copy of the tile buffer is the allocator's. */
    #pragma omp parallel
    #pragma omp single
    for (int t = 0; t < tiles; t++) {
        #pragma omp task firstprivate(tile, t) allocate(tiled: tile) shared(task_sums, bad)
        {
            long s = 0;
            for (int k = 0; k < TILE; k++) tile[k] = data[t * TILE + k] * 2;
            for (int k = 0; k < TILE; k++) s += tile[k];
            #pragma omp atomic
            task_sums += s;
            #pragma omp atomic
            bad += misaligned(tile, 128);
        }
    }

    /* The same sums from a taskloop and from a worksharing loop's private tiles. */
    #pragma omp parallel
    #pragma omp single
    #pragma omp taskloop private(tile) allocate(tiled: tile) reduction(+: loop_sums, bad)
    for (int t = 0; t < tiles; t++) {
        for (int k = 0; k < TILE; k++) tile[k] = data[t * TILE + k] * 2;
        for (int k = 0; k < TILE; k++) loop_sums += tile[k];
        bad += misaligned(tile, 128);
    }
    long checked = 0;
    #pragma omp parallel for private(tile) allocate(allocator(omp_low_lat_mem_alloc), align(64): tile) \
        reduction(+: checked, bad)
    for (int t = 0; t < tiles; t++) {
        for (int k = 0; k < TILE; k++) tile[k] = data[t * TILE + k] * 2;
        for (int k = 0; k < TILE; k++) checked += tile[k];
        bad += misaligned(tile, 64);
    }

    /* Two sections: the even and the odd tiles. */
    #pragma omp parallel sections private(tile) allocate(tiled: tile) reduction(+: section_sums, bad)
    {
        #pragma omp section
        for (int t = 0; t < tiles; t += 2) {
            for (int k = 0; k < TILE; k++) tile[k] = data[t * TILE + k] * 2;
            for (int k = 0; k < TILE; k++) section_sums += tile[k];
            bad += misaligned(tile, 128);
        }
        #pragma omp section
        for (int t = 1; t < tiles; t += 2) {
            for (int k = 0; k < TILE; k++) tile[k] = data[t * TILE + k] * 2;
            for (int k = 0; k < TILE; k++) section_sums += tile[k];
            bad += misaligned(tile, 128);
        }
    }

    /* On the device: each thread's copy from omp_thread_mem_alloc. */
    #pragma omp target map(to: data[0:n]) map(tofrom: device_sum)
    #pragma omp parallel for private(tile) allocate(omp_thread_mem_alloc: tile) reduction(+: device_sum)
    for (int t = 0; t < tiles; t++) {
        for (int k = 0; k < TILE; k++) tile[k] = data[t * TILE + k] * 2;
        for (int k = 0; k < TILE; k++) device_sum += tile[k];
    }

    printf("tasks %ld, taskloop %ld, loop %ld, sections %ld, device %ld\n", task_sums, loop_sums, checked,
           section_sums, device_sum);
    printf("misaligned buffers: %d\n", bad);
    omp_destroy_allocator(tiled);
    free(data);
    return 0;
}
