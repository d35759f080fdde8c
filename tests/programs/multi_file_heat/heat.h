/* A 2-D heat-diffusion mini-app split over several files, as proxy apps are:
   the grid lives in grid.c, the stencil in stencil.c, the diagnostics in
   diagnostics.c, the driver in main.c. */
#ifndef HEAT_H
#define HEAT_H

#define NX 48
#define NY 32
#define CELLS (NX * NY)

typedef struct {
    int steps;
    int report_every;
    double alpha;
} heat_params;

/* Defined in grid.c; mapped by the target regions of stencil.c and diagnostics.c. */
extern double grid[CELLS];
extern double scratch[CELLS];

#pragma omp declare target
/* The diffusion coefficient, a declare target global defined in grid.c. */
extern double diffusivity;
/* Defined in stencil.c, called in target regions of stencil.c and diagnostics.c. */
double stencil_point(const double *g, int i, int j);
int cell_index(int i, int j);
#pragma omp end declare target

void grid_init(double hot);
void grid_set_diffusivity(double alpha);
void heat_step(void);
double heat_total(void);
double heat_max(void);
long hot_cells(double threshold);

#endif
