/* Inside the region, every pointer a declare mapper attached points at the device's copy:
   on the CPU device (its own buffers) no cell's pointers equal the host's, and what the
   region reads through them is the data mapped. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { int n; double *w; int *nb; } cell_t;
typedef struct { int ncells; cell_t *cells; } mesh_t;
#pragma omp declare mapper(cell_t c) map(c, c.w[0:c.n], c.nb[0:c.n])
#pragma omp declare mapper(mesh_t m) map(m, m.cells[0:m.ncells])

int main(void) {
    enum { CELLS = 100 };
    mesh_t mesh = {CELLS, malloc(CELLS * sizeof(cell_t))};
    uintptr_t host_w[CELLS], host_cells = (uintptr_t)mesh.cells;
    for (int i = 0; i < CELLS; i++) {
        mesh.cells[i].n = 1 + i % 3;
        mesh.cells[i].w = malloc(mesh.cells[i].n * sizeof(double));
        mesh.cells[i].nb = malloc(mesh.cells[i].n * sizeof(int));
        for (int k = 0; k < mesh.cells[i].n; k++) {
            mesh.cells[i].w[k] = i + k;
            mesh.cells[i].nb[k] = (i + k) % CELLS;
        }
        host_w[i] = (uintptr_t)mesh.cells[i].w;
    }
    int same = 0, cells_moved = 0;
    double total = 0;
    #pragma omp target map(tofrom: same, total, cells_moved) map(to: host_w)
    {
        cells_moved = (uintptr_t)mesh.cells != host_cells;
        for (int i = 0; i < mesh.ncells; i++) {
            same += (uintptr_t)mesh.cells[i].w == host_w[i];
            for (int k = 0; k < mesh.cells[i].n; k++) total += mesh.cells[i].w[k] * mesh.cells[i].nb[k];
        }
    }
    printf("cells moved %d, pointers still the host's %d, total %.1f\n", cells_moved, same, total);
    for (int i = 0; i < CELLS; i++) same += (uintptr_t)mesh.cells[i].w != host_w[i];   /* host's kept */
    printf("host pointers changed %d\n", same);
    return 0;
}
