/* No `requires` here, but a device construct: the program's other file requires
 * unified_shared_memory, so this one must too (OpenMP 5.0 2.5.1). */
void scale(double *a, int n, double factor) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
    for (int i = 0; i < n; i++) a[i] *= factor;
}
