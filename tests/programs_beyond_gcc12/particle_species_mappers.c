/* Particle species with stencils, as a plasma code's setup might write them: a system of
 * species (an array of structs behind a pointer), each with its positions and an array of
 * two stencil structs by value, each stencil with its weights behind a pointer. Default
 * mappers nest three deep (system -> species, element by element -> each species' stencil
 * array -> each stencil's weights) and a by-value member (the global stencil) takes its
 * own; a named mapper maps only the positions of an array section of species through
 * enter/exit data; a flat array is mapped as a 2-D shape, `map(([3][4])flat)`.
 *
 * Expected output: the serial program's (its pragmas ignored):
 * `gcc -x c particle_species_mappers.c && ./a.out`. */
#include <stdio.h>
#include <stdlib.h>

typedef struct { int n; double *w; } stencil_t;
typedef struct { int count; double *x; stencil_t st[2]; } species_t;
typedef struct { int nspecies; species_t *sp; stencil_t global; } system_t;

#pragma omp declare mapper(stencil_t s) map(s, s.w[0:s.n])
#pragma omp declare mapper(species_t p) map(p, p.x[0:p.count], p.st)
#pragma omp declare mapper(system_t y) map(y, y.sp[0:y.nspecies], y.global)
#pragma omp declare mapper(positions: species_t p) map(p.x[0:p.count])

int main(void) {
    system_t sys;
    sys.nspecies = 3;
    sys.sp = malloc(3 * sizeof(species_t));
    sys.global.n = 4; sys.global.w = malloc(4 * sizeof(double));
    for (int k = 0; k < 4; k++) sys.global.w[k] = k + 1;
    for (int s = 0; s < 3; s++) {
        species_t *p = &sys.sp[s];
        p->count = 5 + s;
        p->x = malloc(p->count * sizeof(double));
        for (int i = 0; i < p->count; i++) p->x[i] = i * 0.5 + s;
        for (int t = 0; t < 2; t++) {
            p->st[t].n = 2 + t;
            p->st[t].w = malloc(p->st[t].n * sizeof(double));
            for (int k = 0; k < p->st[t].n; k++) p->st[t].w[k] = 0.1 * (k + 1) * (t + 1);
        }
    }
    double *flat = malloc(12 * sizeof(double));
    for (int k = 0; k < 12; k++) flat[k] = k;
    #pragma omp target map(tofrom: sys) map(tofrom: ([3][4])flat)
    {
        for (int s = 0; s < sys.nspecies; s++) {
            species_t *p = &sys.sp[s];
            for (int i = 0; i < p->count; i++) {
                double f = 0;
                for (int t = 0; t < 2; t++)
                    for (int k = 0; k < p->st[t].n; k++) f += p->st[t].w[k];
                p->x[i] += f * sys.global.w[i % 4];
            }
        }
        for (int k = 0; k < 12; k++) flat[k] *= 2;
    }
    /* a named mapper over an array section of structs */
    #pragma omp target enter data map(mapper(positions), to: sys.sp[0:3])
    #pragma omp target map(mapper(positions), tofrom: sys.sp[0:3])
    for (int s = 0; s < 3; s++) sys.sp[s].x[0] = -1.0 - s;
    #pragma omp target exit data map(mapper(positions), from: sys.sp[0:3])
    double sum = 0;
    for (int s = 0; s < 3; s++)
        for (int i = 0; i < sys.sp[s].count; i++) sum += sys.sp[s].x[i] * (i + 1);
    double fs = 0; for (int k = 0; k < 12; k++) fs += flat[k];
    printf("sum %.6f flat %.1f\n", sum, fs);
    return 0;
}
