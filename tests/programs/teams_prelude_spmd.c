/* `target teams` regions whose sequential part only declares read-only scalars before a
   `distribute parallel for` (the paper's Fig. 1 shape): the combined scheme lets every
   thread make its own copies.  Initialisers read captured scalars, a struct member
   and earlier declarations; the loops reduce, write arrays, and use collapse(2). */
#include <stdio.h>

struct params { double scale; int shift; };

int main(void) {
  enum { N = 5000, R = 40, C = 30 };
  static double a[N], m[R][C];
  double total = 0.0;
  struct params p = { 0.5, 3 };
  int n = N, base = 7;

  #pragma omp target teams map(from: a) map(tofrom: total) firstprivate(p)
  {
    double pi = 3.14, scale = p.scale * 2.0;
    int offset = base + p.shift, half = n / 2;
    #pragma omp distribute parallel for reduction(+: total)
    for (int i = 0; i < n; i++) {
      a[i] = (i < half ? pi : -pi) * scale + offset;
      total += a[i];
    }
  }

  #pragma omp target teams map(from: m)
  {
    const int stride = C * 10;
    #pragma omp distribute parallel for collapse(2)
    for (int r = 0; r < R; r++)
      for (int c = 0; c < C; c++)
        m[r][c] = r * stride + c;
  }

  long msum = 0;
  for (int r = 0; r < R; r++)
    for (int c = 0; c < C; c++) msum += (long)m[r][c];
  printf("a[0] %.2f a[N-1] %.2f total %.2f msum %ld\n", a[0], a[N - 1], total, msum);
  return 0;
}
