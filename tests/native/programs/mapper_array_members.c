/* A default mapper reached through an array member of structs: each species holds two
   stencils by value (`st[2]`), each stencil its weights behind a pointer, mapped by the
   stencil's default mapper through the species' mapper (`map(p, p.st)`) for every element
   of a section of species. Inside the region every weights pointer is the device's (on the
   CPU device, whose buffers are its own, none equals the host's), and the weights read are
   the data mapped. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { int n; double *w; } stencil_t;
typedef struct { int count; stencil_t st[2]; } species_t;
#pragma omp declare mapper(stencil_t s) map(s, s.w[0:s.n])
#pragma omp declare mapper(species_t p) map(p, p.st)

int main(void) {
    enum { SPECIES = 5 };
    species_t *sp = malloc(SPECIES * sizeof *sp);
    uintptr_t host_w[SPECIES][2];
    for (int s = 0; s < SPECIES; s++)
        for (int t = 0; t < 2; t++) {
            stencil_t *st = &sp[s].st[t];
            st->n = 2 + t + s;
            st->w = malloc(st->n * sizeof(double));
            for (int k = 0; k < st->n; k++) st->w[k] = s + t + 0.5 * k;
            host_w[s][t] = (uintptr_t)st->w;
        }
    int same = 0;
    double total = 0;
    #pragma omp target map(tofrom: sp[0:SPECIES], same, total) map(to: host_w)
    for (int s = 0; s < SPECIES; s++)
        for (int t = 0; t < 2; t++) {
            same += (uintptr_t)sp[s].st[t].w == host_w[s][t];
            for (int k = 0; k < sp[s].st[t].n; k++) total += sp[s].st[t].w[k];
        }
    printf("weights pointers still the host's %d, total %.1f\n", same, total);
    return 0;
}
