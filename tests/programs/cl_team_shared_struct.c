/* A struct declared in the sequential part of a target region, filled by the master,
   read by every thread; and a struct of per-thread slots written in one parallel region
   and read back by the master. */
#include <stdio.h>
#include <omp.h>
struct params { int n; double scale; int offset; };
struct slots { double value[64]; int used; };
int main(void) {
  double result = 0.0;
  int used = 0;
  #pragma omp target teams num_teams(1) thread_limit(64) map(tofrom: result, used)
  {
    struct params p = {1000, 0.5, 3};
    struct slots out;
    out.used = 0;
    for (int i = 0; i < 64; i++) out.value[i] = 0.0;
    #pragma omp parallel
    {
      int id = omp_get_thread_num(), n = omp_get_num_threads();
      double s = 0.0;
      for (int i = id; i < p.n; i += n) s += p.scale * (i + p.offset);
      out.value[id] = s;
      #pragma omp atomic
      out.used += 1;
    }
    double t = 0.0;
    for (int i = 0; i < 64; i++) t += out.value[i];
    result = t;
    used = out.used >= 1;
  }
  printf("result %.1f used %d\n", result, used);
  return 0;
}
