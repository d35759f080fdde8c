/* Functions of this translation unit holding OpenMP constructs, called from a target
   region: a parallel region in a callee called from sequential code (runs with the
   team on the GPU), a parallel for with a reduction in a function returning a value,
   and orphaned for / master / barrier in callees called inside a parallel region. */
#include <stdio.h>
#include <omp.h>
#define N 1000

#pragma omp declare target
static void scale(double *a, int n, double f, int *nthreads) {
  #pragma omp parallel
  {
    #pragma omp master
    *nthreads = omp_get_num_threads();
    #pragma omp for
    for (int i = 0; i < n; i++) a[i] *= f;
  }
}

static int count_ones(const double *a, int n) {
  int c = 0;
  #pragma omp parallel for reduction(+: c)
  for (int i = 0; i < n; i++) c += a[i] == 1.0;
  return c;
}

static void orphan_for(double *a, int n) {
  #pragma omp for
  for (int i = 0; i < n; i++) a[i] += 1.0;
}

static void orphan_master(int *hits) {
  #pragma omp master
  *hits += 1;
  #pragma omp barrier
}
#pragma omp end declare target

int main(void) {
  double a[N];
  for (int i = 0; i < N; i++) a[i] = i % 2;
  int nthreads = 0, ones = 0, hits = 0, local_ok = 0;
  #pragma omp target map(tofrom: a, nthreads, ones, hits, local_ok)
  {
    double buf[16];
    for (int i = 0; i < 16; i++) buf[i] = 1.0;
    scale(a, N, 2.0, &nthreads);
    ones = count_ones(buf, 16);
    #pragma omp parallel
    {
      orphan_for(a, N);
      orphan_master(&hits);
    }
    local_ok = count_ones(a, N);
  }
  double s = 0;
  for (int i = 0; i < N; i++) s += a[i];
  printf("sum %.1f ones %d hits %d threads>=1 %d odd %d\n", s, ones, hits, nthreads >= 1, local_ok);
  return 0;
}
