/* miniMD-style Lennard-Jones molecular dynamics: atoms on an fcc lattice in a
 * periodic box, velocity-Verlet integration, forces from a half-shell-free
 * full neighbour list built with bins every `reneigh` steps. The atom data is a
 * struct of arrays (x, v, f as separate arrays of 3*natoms doubles); the force
 * loop, the integrator and the energy/virial reductions are target regions
 * inside a `target data` region around the time-step loop, the positions
 * brought back with `target update` when the host rebuilds the neighbour list.
 *
 * Command line: [-n unit_cells] [-s steps] [-r reneigh]; other words are ignored. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXNEIGHS 96

typedef struct {
    int natoms;
    double box;                 /* cubic periodic box edge */
    double *x, *v, *f;          /* 3 * natoms each */
} Atoms;

typedef struct {
    int *numneigh;              /* natoms */
    int *neighbors;             /* natoms * MAXNEIGHS */
    double cutneigh;
} Neighbor;

typedef struct {
    double dt, cutforce, mass;
    int steps, reneigh, thermo;
} Integrate;

static void create_fcc(Atoms *a, int cells, double lattice)
{
    static const double basis[4][3] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
    int i, j, k, b, n = 0;
    unsigned int seed = 5287u;
    a->natoms = 4 * cells * cells * cells;
    a->box = cells * lattice;
    a->x = malloc(3 * a->natoms * sizeof(double));
    a->v = malloc(3 * a->natoms * sizeof(double));
    a->f = calloc(3 * a->natoms, sizeof(double));
    for (i = 0; i < cells; i++)
        for (j = 0; j < cells; j++)
            for (k = 0; k < cells; k++)
                for (b = 0; b < 4; b++, n++) {
                    int d;
                    a->x[3 * n + 0] = (i + basis[b][0]) * lattice;
                    a->x[3 * n + 1] = (j + basis[b][1]) * lattice;
                    a->x[3 * n + 2] = (k + basis[b][2]) * lattice;
                    for (d = 0; d < 3; d++) {
                        seed = seed * 69069u + 1u;
                        a->v[3 * n + d] = ((seed >> 8) / 16777216.0 - 0.5) * 4.0;
                    }
                }
}

static double min_image(double d, double box)
{
    if (d > 0.5 * box)
        d -= box;
    else if (d < -0.5 * box)
        d += box;
    return d;
}

/* All pairs within cutneigh (O(N^2) on the host: the test boxes are small). */
static void build_neighbors(const Atoms *a, Neighbor *nb)
{
    int i, j;
    double cut2 = nb->cutneigh * nb->cutneigh;
    for (i = 0; i < a->natoms; i++) {
        int count = 0;
        for (j = 0; j < a->natoms; j++) {
            double dx, dy, dz;
            if (j == i)
                continue;
            dx = min_image(a->x[3 * i] - a->x[3 * j], a->box);
            dy = min_image(a->x[3 * i + 1] - a->x[3 * j + 1], a->box);
            dz = min_image(a->x[3 * i + 2] - a->x[3 * j + 2], a->box);
            if (dx * dx + dy * dy + dz * dz < cut2 && count < MAXNEIGHS)
                nb->neighbors[i * MAXNEIGHS + count++] = j;
        }
        nb->numneigh[i] = count;
    }
}

#pragma omp declare target
static double wrap(double d, double box)
{
    if (d > 0.5 * box)
        return d - box;
    if (d < -0.5 * box)
        return d + box;
    return d;
}
#pragma omp end declare target

int main(int argc, char **argv)
{
    Atoms atoms;
    Neighbor nb;
    Integrate in = {0.005, 2.5, 1.0, 40, 10, 10};
    int cells = 4, i, step, natoms, n3;
    double *x, *v, *f, box, t_force = 0.0;
    int *numneigh, *neighbors;
    struct timespec ts0, ts1;

    for (i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "-n"))
            cells = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-s"))
            in.steps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-r"))
            in.reneigh = atoi(argv[++i]);
    }
    create_fcc(&atoms, cells, 1.6796);          /* reduced density 0.8442 */
    natoms = atoms.natoms;
    n3 = 3 * natoms;
    x = atoms.x;
    v = atoms.v;
    f = atoms.f;
    box = atoms.box;
    nb.cutneigh = in.cutforce + 0.3;
    nb.numneigh = malloc(natoms * sizeof(int));
    nb.neighbors = malloc(natoms * MAXNEIGHS * sizeof(int));
    numneigh = nb.numneigh;
    neighbors = nb.neighbors;
    build_neighbors(&atoms, &nb);
    printf("miniMD-like LJ: %d atoms, box %.4f, %d steps, dt %.3f\n", natoms, box, in.steps, in.dt);

#pragma omp target data map(tofrom: x[0:n3], v[0:n3]) map(alloc: f[0:n3]) \
                        map(to: numneigh[0:natoms], neighbors[0:natoms*MAXNEIGHS])
    for (step = 0; step <= in.steps; step++) {
        double cutforcesq = in.cutforce * in.cutforce, dtforce = 0.5 * in.dt / in.mass, dt = in.dt;
        double eng = 0.0, virial = 0.0, ke = 0.0;

        if (step > 0) {
            /* First half kick and drift. */
#pragma omp target teams distribute parallel for
            for (i = 0; i < n3; i++) {
                v[i] += dtforce * f[i];
                x[i] += dt * v[i];
            }
            if (step % in.reneigh == 0) {
#pragma omp target update from(x[0:n3])
                for (i = 0; i < n3; i++) {          /* back into the box */
                    if (x[i] < 0)
                        x[i] += box;
                    else if (x[i] >= box)
                        x[i] -= box;
                }
                build_neighbors(&atoms, &nb);
#pragma omp target update to(x[0:n3], numneigh[0:natoms], neighbors[0:natoms*MAXNEIGHS])
            }
        }

        clock_gettime(CLOCK_MONOTONIC, &ts0);
#pragma omp target teams distribute parallel for reduction(+: eng, virial) firstprivate(cutforcesq, box)
        for (i = 0; i < natoms; i++) {
            double fx = 0, fy = 0, fz = 0;
            int k;
            for (k = 0; k < numneigh[i]; k++) {
                int j = neighbors[i * MAXNEIGHS + k];
                double dx = wrap(x[3 * i] - x[3 * j], box);
                double dy = wrap(x[3 * i + 1] - x[3 * j + 1], box);
                double dz = wrap(x[3 * i + 2] - x[3 * j + 2], box);
                double rsq = dx * dx + dy * dy + dz * dz;
                if (rsq < cutforcesq) {
                    double sr2 = 1.0 / rsq, sr6 = sr2 * sr2 * sr2;
                    double force = 48.0 * sr6 * (sr6 - 0.5) * sr2;
                    fx += dx * force;
                    fy += dy * force;
                    fz += dz * force;
                    eng += 0.5 * 4.0 * sr6 * (sr6 - 1.0);
                    virial += 0.5 * (dx * dx + dy * dy + dz * dz) * force;
                }
            }
            f[3 * i] = fx;
            f[3 * i + 1] = fy;
            f[3 * i + 2] = fz;
        }
        clock_gettime(CLOCK_MONOTONIC, &ts1);
        t_force += (ts1.tv_sec - ts0.tv_sec) + 1e-9 * (ts1.tv_nsec - ts0.tv_nsec);

        if (step > 0) {
            /* Second half kick. */
#pragma omp target teams distribute parallel for
            for (i = 0; i < n3; i++)
                v[i] += dtforce * f[i];
        }
        if (step % in.thermo == 0) {
#pragma omp target teams distribute parallel for reduction(+: ke)
            for (i = 0; i < n3; i++)
                ke += v[i] * v[i];
            printf("step %3d  T %.6f  PE/atom %.6f  P %.6f\n", step, ke / (3.0 * natoms), eng / natoms,
                   (ke + virial) / (3.0 * box * box * box));
        }
    }
    printf("x[0] = (%.6f, %.6f, %.6f)\n", x[0], x[1], x[2]);
    printf("timing: force loop %.4f s\n", t_force);
    free(atoms.x);
    free(atoms.v);
    free(atoms.f);
    free(nb.numneigh);
    free(nb.neighbors);
    return 0;
}
