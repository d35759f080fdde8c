/* Agrees with the program's other file. */
#pragma omp requires unified_shared_memory
void scale(double *a, int n, double factor) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++) a[i] *= factor;
}
