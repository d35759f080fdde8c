/* Requires something else than the program's other file. */
#pragma omp requires unified_address
void scale(double *a, int n, double factor) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
    for (int i = 0; i < n; i++) a[i] *= factor;
}
