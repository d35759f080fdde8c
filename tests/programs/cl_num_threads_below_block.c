/* parallel num_threads(3) and num_threads(n) inside target teams thread_limit(64):
   the region has at most the threads asked for, each thread id below that count,
   ids distinct, and the other threads of the block stay out. */
#include <stdio.h>
#include <omp.h>
int main(void) {
  int bad = 0, regions[2] = {0, 0};
  int want = 5;
  #pragma omp target teams num_teams(2) thread_limit(64) map(tofrom: bad, regions)
  {
    int seen[64];
    for (int r = 0; r < 2; r++) {
      int asked = r == 0 ? 3 : want;
      int threads = 0;
      for (int i = 0; i < 64; i++) seen[i] = 0;
      #pragma omp parallel num_threads(asked)
      {
        int id = omp_get_thread_num(), n = omp_get_num_threads();
        if (n > asked || id >= n) {
          #pragma omp atomic
          bad += 1;
        }
        #pragma omp atomic
        seen[id] += 1;
        #pragma omp master
        threads = n;
      }
      for (int i = 0; i < 64; i++)
        if (seen[i] != (i < threads ? 1 : 0)) bad += 1;
      if (omp_get_team_num() < 2) regions[omp_get_team_num()] += 1;
    }
  }
  printf("bad %d regions %d\n", bad, regions[0]);
  return 0;
}
