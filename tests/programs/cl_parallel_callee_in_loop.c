/* A function holding a parallel for, called from a sequential loop of a target region
   (on the GPU it runs with the whole team each time), with the master updating state
   between calls; and a helper with an orphaned for called inside a parallel region. */
#include <stdio.h>
#include <omp.h>
#define N 300
#pragma omp declare target
void relax(double *u, const double *f, int n) {
  #pragma omp parallel for
  for (int i = 1; i < n - 1; i++) u[i] = 0.5 * (f[i - 1] + f[i + 1]);
}
void copy(double *dst, const double *src, int n) {
  #pragma omp for
  for (int i = 0; i < n; i++) dst[i] = src[i];
}
#pragma omp end declare target
int main(void) {
  double u[N], f[N];
  for (int i = 0; i < N; i++) f[i] = u[i] = (i % 10) * 1.0;
  int sweeps = 0;
  #pragma omp target map(tofrom: u, f, sweeps)
  {
    for (int s = 0; s < 8; s++) {
      relax(u, f, N);
      sweeps += 1;
      #pragma omp parallel
      copy(f, u, N);
    }
  }
  double sum = 0.0;
  for (int i = 0; i < N; i++) sum += u[i];
  printf("sweeps %d sum %.6f\n", sweeps, sum);
  return 0;
}
