/* A diffusion step on an unstructured mesh, written as C codes with linked structures
 * write it: a mesh struct holds an array of cells, each cell its own neighbour list and
 * weights (pointers to arrays of run-time length), and a field struct by value with the
 * state arrays. Nested `declare mapper`s map the whole structure in one clause (the mesh's
 * mapper maps its cells through the cell mapper, element by element, and its field through
 * the field mapper); a named mapper moves only the field's values, for the host's
 * diagnostics and its source term between steps (`target update mapper(values)`).
 *
 * Expected output: the serial program's (a correct OpenMP program prints what it prints
 * with its pragmas ignored): `gcc -x c mesh_nested_mappers.c && ./a.out`. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int nnb;            /* neighbours */
    int *nb;            /* their cell numbers */
    double *w;          /* their weights */
} cell_t;

typedef struct {
    int n;
    double *u;          /* the state */
    double *flux;
} field_t;

typedef struct {
    int ncells;
    cell_t *cells;
    field_t field;
    double dt;
} mesh_t;

#pragma omp declare mapper(cell_t c) map(c, c.nb[0:c.nnb], c.w[0:c.nnb])
#pragma omp declare mapper(field_t f) map(f, f.u[0:f.n], f.flux[0:f.n])
#pragma omp declare mapper(mesh_t m) map(m, m.cells[0:m.ncells], m.field)
#pragma omp declare mapper(values: mesh_t m) map(m.field.u[0:m.field.n])

static mesh_t build(int ncells) {
    mesh_t m;
    m.ncells = ncells;
    m.dt = 0.1;
    m.cells = malloc(ncells * sizeof *m.cells);
    for (int i = 0; i < ncells; i++) {
        cell_t *c = &m.cells[i];
        c->nnb = 1 + i % 4;                                 /* 1 to 4 neighbours */
        c->nb = malloc(c->nnb * sizeof *c->nb);
        c->w = malloc(c->nnb * sizeof *c->w);
        for (int k = 0; k < c->nnb; k++) {
            c->nb[k] = (i + 7 * k + 1) % ncells;
            c->w[k] = 0.25 / (k + 1);
        }
    }
    m.field.n = ncells;
    m.field.u = calloc(ncells, sizeof(double));
    m.field.flux = calloc(ncells, sizeof(double));
    for (int i = 0; i < ncells; i++) m.field.u[i] = (i % 5) * 0.5;
    return m;
}

static void release(mesh_t *m) {
    for (int i = 0; i < m->ncells; i++) {
        free(m->cells[i].nb);
        free(m->cells[i].w);
    }
    free(m->cells);
    free(m->field.u);
    free(m->field.flux);
}

int main(int argc, char **argv) {
    int ncells = 200, steps = 12, every = 4, opt;
    while ((opt = getopt(argc, argv, "n:s:")) != -1) {
        if (opt == 'n') ncells = atoi(optarg);
        else if (opt == 's') steps = atoi(optarg);
    }
    mesh_t mesh = build(ncells);

    #pragma omp target enter data map(to: mesh)
    for (int step = 1; step <= steps; step++) {
        #pragma omp target teams distribute parallel for
        for (int i = 0; i < mesh.ncells; i++) {
            const cell_t *c = &mesh.cells[i];
            double f = 0.0;
            for (int k = 0; k < c->nnb; k++)
                f += c->w[k] * (mesh.field.u[c->nb[k]] - mesh.field.u[i]);
            mesh.field.flux[i] = f;
        }
        #pragma omp target teams distribute parallel for
        for (int i = 0; i < mesh.ncells; i++)
            mesh.field.u[i] += mesh.dt * mesh.field.flux[i];
        if (step % every == 0) {
            #pragma omp target update from(mapper(values): mesh)
            double total = 0.0, top = mesh.field.u[0];
            for (int i = 0; i < mesh.ncells; i++) {
                total += mesh.field.u[i];
                if (mesh.field.u[i] > top) top = mesh.field.u[i];
            }
            printf("step %2d: total %.9f max %.9f\n", step, total, top);
            mesh.field.u[0] += 1.0;                         /* the source, added by the host */
            #pragma omp target update to(mapper(values): mesh)
        }
    }
    #pragma omp target exit data map(from: mesh)

    double checksum = 0.0;
    for (int i = 0; i < mesh.ncells; i++) checksum += (i + 1) * mesh.field.u[i] + mesh.field.flux[i];
    printf("checksum %.9f\n", checksum);
    release(&mesh);
    return 0;
}
