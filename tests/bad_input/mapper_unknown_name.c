/* expect: 9:42: error: no '#pragma omp declare mapper' named 'halo' for type 'struct grid' */
/* The map clause names a mapper the program never declared. */
struct grid { int n; double *cells; };
#pragma omp declare mapper(interior: struct grid g) map(g, g.cells[1:g.n - 2])

int main(void) {
    double cells[10] = {0};
    struct grid g = {10, cells};
#pragma omp target map(mapper(halo), to: g)
    g.cells[0] = 1.0;
    return 0;
}
