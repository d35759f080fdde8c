/* Reductions inside target regions: a parallel for reduction inside each team,
   folded across teams by target teams reduction, and teams distribute with an inner
   parallel for reduction(max) and reduction(*). */
#include <stdio.h>
#include <omp.h>
#define N 4096
int main(void) {
  static double x[N];
  for (int i = 0; i < N; i++) x[i] = (i % 17) * 0.5;
  double total = 0.0, biggest = -1.0;
  long product_mod = 1;
  #pragma omp target teams distribute num_teams(4) thread_limit(64) map(to: x) reduction(+: total) reduction(max: biggest)
  for (int block = 0; block < 16; block++) {
    double part = 0.0, top = -1.0;
    #pragma omp parallel for reduction(+: part) reduction(max: top)
    for (int i = block * (N / 16); i < (block + 1) * (N / 16); i++) {
      part += x[i];
      top = x[i] > top ? x[i] : top;
    }
    total += part;
    biggest = top > biggest ? top : biggest;
  }
  #pragma omp target teams num_teams(1) thread_limit(32) map(tofrom: product_mod)
  {
    long p = 1;
    #pragma omp parallel for reduction(*: p)
    for (int i = 1; i <= 20; i++) p *= (i % 3) + 1;
    product_mod = p;
  }
  printf("total %.1f max %.1f product %ld\n", total, biggest, product_mod);
  return 0;
}
