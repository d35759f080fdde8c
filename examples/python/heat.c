/* Heat diffusion on an n x n grid whose edges stay at 0 (examples/python/heat.py calls
   these functions from Python with NumPy or CuPy arrays). */

void heat_step(int n, double alpha, const double *restrict u, double *restrict next) {
    #pragma omp target teams distribute parallel for collapse(2) map(to: u[0:n*n]) map(tofrom: next[0:n*n])
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++)
            next[i * n + j] = u[i * n + j] + alpha * (u[(i - 1) * n + j] + u[(i + 1) * n + j]
                                                      + u[i * n + j - 1] + u[i * n + j + 1]
                                                      - 4.0 * u[i * n + j]);
}

double heat_total(int n, const double *u) {
    double total = 0.0;
    #pragma omp target teams distribute parallel for reduction(+: total) map(to: u[0:n*n])
    for (int i = 0; i < n * n; i++)
        total += u[i];
    return total;
}
