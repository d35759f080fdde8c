#ifndef GRID_H
#define GRID_H
/* A 1-D rod's temperatures, and one explicit time step of the heat equation on the device. */
struct grid {
    int n;
    double *t, *next;
};

void grid_init(struct grid *g, int n);
void grid_step(struct grid *g, double alpha);
void grid_free(struct grid *g);
#endif
