/* A pipelined offload with OpenMP 5.1's asynchronous copies: the input is cut into chunks;
 * for each chunk a depend object orders three tasks made by one thread of a team: an
 * omp_target_memcpy_async into device memory, a `target nowait` region scaling it there,
 * an omp_target_memcpy_async back, while other threads run other chunks' tasks. A 2-D
 * tile is then copied out of the result with omp_target_memcpy_rect_async.
 * Expected output: with in[i] = i and chunk c of m elements becoming 2 * in[i] + c, chunk
 * c's sum is 2 * (c*m*m + m*(m-1)/2) + c*m; the tile rows are those of out[][] and the last
 * line compares with the same computed on the host. (gcc 12 has neither routine.) */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define CHUNKS 6
#define M 1000

int main(void) {
    int dev = omp_get_default_device(), host = omp_get_initial_device();
    double *in = malloc(CHUNKS * M * sizeof *in), *out = calloc(CHUNKS * M, sizeof *out);
    double *buffer = omp_target_alloc(CHUNKS * M * sizeof *buffer, dev);
    omp_depend_t order[CHUNKS];
    for (int i = 0; i < CHUNKS * M; i++) in[i] = i;
#pragma omp parallel
#pragma omp single
    for (int c = 0; c < CHUNKS; c++) {
        double *piece = buffer + (size_t)c * M;
#pragma omp depobj(order[c]) depend(inout: piece[0])
        omp_target_memcpy_async(buffer, in, M * sizeof *in, c * M * sizeof *in, c * M * sizeof *in, dev, host, 1,
                                &order[c]);
#pragma omp target nowait depend(depobj: order[c]) is_device_ptr(piece) device(dev)
#pragma omp teams distribute parallel for
        for (int i = 0; i < M; i++) piece[i] = 2 * piece[i] + c;
        omp_target_memcpy_async(out, buffer, M * sizeof *out, c * M * sizeof *out, c * M * sizeof *out, host, dev, 1,
                                &order[c]);
    }
    for (int c = 0; c < CHUNKS; c++) {
        double sum = 0;
        for (int i = 0; i < M; i++) sum += out[c * M + i];
        printf("chunk %d sum %.0f expected %.0f\n", c, sum, 2.0 * ((double)c * M * M + M * (M - 1) / 2.0) + (double)c * M);
    }

    /* rows 2..4, columns 10..13 of out seen as CHUNKS x M */
    double tile[3][4];
    size_t volume[2] = {3, 4}, from[2] = {2, 10}, to[2] = {0, 0}, whole[2] = {CHUNKS, M}, small[2] = {3, 4};
    omp_depend_t done;
#pragma omp depobj(done) depend(inout: tile)
    omp_target_memcpy_rect_async(tile, buffer, sizeof(double), 2, volume, to, from, small, whole, host, dev, 1, &done);
#pragma omp taskwait depend(depobj: done)
#pragma omp depobj(done) destroy
    for (int r = 0; r < 3; r++) printf("tile row %d: %g %g %g %g\n", r, tile[r][0], tile[r][1], tile[r][2], tile[r][3]);

    int agree = 1;
    for (int i = 0; i < CHUNKS * M; i++) agree &= out[i] == 2 * in[i] + i / M;
    printf("host agrees: %s\n", agree ? "yes" : "no");
    for (int c = 0; c < CHUNKS; c++) {
#pragma omp depobj(order[c]) destroy
    }
    omp_target_free(buffer, dev);
    free(in);
    free(out);
    return agree ? 0 : 1;
}
