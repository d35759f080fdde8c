/* Sequential code between parallel regions of one target region: the team master
   computes values that the next parallel region reads, and folds results the
   previous one wrote, three rounds. */
#include <stdio.h>
#include <omp.h>
#define N 256
int main(void) {
  double a[N];
  double total = 0.0;
  int rounds_ok = 0;
  #pragma omp target teams num_teams(1) thread_limit(64) map(from: a) map(tofrom: total, rounds_ok)
  {
    double scale = 1.0;
    double part[64];
    for (int round = 0; round < 3; round++) {
      for (int t = 0; t < 64; t++) part[t] = 0.0;
      #pragma omp parallel
      {
        int id = omp_get_thread_num(), n = omp_get_num_threads();
        for (int i = id; i < N; i += n) {
          a[i] = scale * i;
          part[id] += a[i];
        }
      }
      double s = 0.0;
      for (int t = 0; t < 64; t++) s += part[t];
      if (s == scale * (N * (N - 1) / 2)) rounds_ok++;
      total += s;
      scale = scale * 2.0 + 1.0;        /* the next region reads the master's new value */
    }
  }
  printf("total %.1f rounds_ok %d a[10] %.1f\n", total, rounds_ok, a[10]);
  return 0;
}
