/* Struct member maps in every form a proxy app writes them: a member of a struct a
 * pointer points to (p->a[0:n], p->len), a nested struct's pointer member
 * (mesh.cells.volume[0:n]), a whole struct with its pointer members' pointees
 * (map(to: s) map(to: s.a[0:n])), target enter/exit data and target update of
 * members. Inside the regions the pointer members point at the device copies; after
 * them the host struct's pointers are the host's again. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    double *volume;
    int *material;
    int count;
} Cells;

typedef struct {
    Cells cells;
    double *flux;
    int nflux;
    double scale;
} Mesh;

typedef struct {
    double *a;
    double *b;
    int len;
    double norm;
} Vectors;

static void fill(Mesh *mesh, Vectors *v)
{
    int i;
    for (i = 0; i < mesh->cells.count; i++) {
        mesh->cells.volume[i] = 1.0 + (i % 5) * 0.5;
        mesh->cells.material[i] = i % 3;
    }
    for (i = 0; i < mesh->nflux; i++)
        mesh->flux[i] = 0.0;
    for (i = 0; i < v->len; i++) {
        v->a[i] = i * 0.5;
        v->b[i] = 2.0 - i * 0.125;
    }
}

static double dot_through_pointer(Vectors *p)
{
    double sum = 0.0;
    int i;
#pragma omp target teams distribute parallel for reduction(+: sum) \
        map(to: p->a[0:p->len], p->b[0:p->len], p->len)
    for (i = 0; i < p->len; i++)
        sum += p->a[i] * p->b[i];
    return sum;
}

int main(void)
{
    Mesh mesh;
    Vectors v;
    double *host_volume, *host_a;
    double total = 0.0;
    int i, step;

    mesh.cells.count = 96;
    mesh.cells.volume = malloc(mesh.cells.count * sizeof(double));
    mesh.cells.material = malloc(mesh.cells.count * sizeof(int));
    mesh.nflux = 3;
    mesh.flux = malloc(mesh.nflux * sizeof(double));
    mesh.scale = 0.25;
    v.len = 40;
    v.a = malloc(v.len * sizeof(double));
    v.b = malloc(v.len * sizeof(double));
    v.norm = 0.0;
    fill(&mesh, &v);
    host_volume = mesh.cells.volume;
    host_a = v.a;

    /* members of the struct a pointer points to */
    printf("dot through pointer: %.4f\n", dot_through_pointer(&v));

    /* a nested struct's pointer members, a scalar member, and a result member */
    for (step = 0; step < 2; step++) {
#pragma omp target map(to: mesh.cells.volume[0:mesh.cells.count], mesh.cells.count) \
        map(to: mesh.cells.material[0:mesh.cells.count], mesh.scale) \
        map(tofrom: mesh.flux[0:mesh.nflux])
        {
            int c;
            for (c = 0; c < mesh.cells.count; c++)
                mesh.flux[mesh.cells.material[c]] += mesh.cells.volume[c] * mesh.scale;
        }
        mesh.scale *= 2.0;
    }
    printf("flux: %.3f %.3f %.3f\n", mesh.flux[0], mesh.flux[1], mesh.flux[2]);

    /* the whole struct and its pointer members' pointees */
#pragma omp target map(tofrom: v) map(tofrom: v.a[0:v.len]) map(to: v.b[0:v.len])
    {
        int k;
        double norm = 0.0;
        for (k = 0; k < v.len; k++) {
            v.a[k] = v.a[k] + v.b[k];
            norm += v.a[k] * v.a[k];
        }
        v.norm = norm;
    }
    printf("whole struct: norm %.4f, a[3] %.4f, host pointers kept %d\n",
           v.norm, v.a[3], v.a == host_a);

    /* enter data once, several regions, update a member's pointee, exit data */
#pragma omp target enter data map(to: mesh.cells.volume[0:mesh.cells.count], mesh.cells.count)
    for (step = 0; step < 3; step++) {
#pragma omp target teams distribute parallel for map(to: mesh.cells.volume[0:mesh.cells.count], mesh.cells.count)
        for (i = 0; i < mesh.cells.count; i++)
            mesh.cells.volume[i] = mesh.cells.volume[i] * 1.5;
    }
#pragma omp target update from(mesh.cells.volume[0:mesh.cells.count])
    for (i = 0; i < mesh.cells.count; i++)
        total += mesh.cells.volume[i];
    printf("after three scalings: %.4f\n", total);
    mesh.cells.volume[0] = 100.0;
#pragma omp target update to(mesh.cells.volume[0:1])
#pragma omp target map(to: mesh.cells.volume[0:mesh.cells.count])
    mesh.cells.volume[0] += mesh.cells.volume[1];
#pragma omp target exit data map(from: mesh.cells.volume[0:mesh.cells.count]) map(release: mesh.cells.count)
    printf("after exit data: volume[0] %.4f, volume[1] %.4f, host pointer kept %d\n",
           mesh.cells.volume[0], mesh.cells.volume[1], mesh.cells.volume == host_volume);

    free(mesh.cells.volume);
    free(mesh.cells.material);
    free(mesh.flux);
    free(v.a);
    free(v.b);
    return 0;
}
