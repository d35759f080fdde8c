/* omp for with schedule(dynamic), dynamic with a chunk, guided and guided with a chunk
   (nowait) inside a parallel region of target teams, run three times in a row: every
   iteration exactly once per team and run, whatever thread takes which chunk. */
#include <stdio.h>
#include <omp.h>
#define N 1003
int main(void) {
  int hits[N] = {0};
  long sums[4] = {0};
  #pragma omp target teams num_teams(3) thread_limit(64) map(tofrom: hits, sums)
  {
    #pragma omp parallel
    {
      for (int rep = 0; rep < 3; rep++) {
        #pragma omp for schedule(dynamic)
        for (int i = 0; i < N; i++) {
          #pragma omp atomic
          hits[i] += 1;
        }
        #pragma omp for schedule(dynamic, 7) reduction(+: sums[0:1])
        for (int i = 0; i < N; i++) sums[0] += i;
        #pragma omp for schedule(guided)
        for (int i = 0; i < N; i++) {
          #pragma omp atomic
          sums[1] += i;
        }
        #pragma omp for schedule(guided, 5) nowait
        for (int i = 0; i < N; i++) {
          #pragma omp atomic
          sums[2] += 1;
        }
      }
    }
  }
  int bad = 0;
  for (int i = 0; i < N; i++) bad += hits[i] != 3 * omp_get_num_teams() * 0 + hits[0];
  printf("hits0 %d bad %d sums %ld %ld %ld\n", hits[0] % 9 == 0 || hits[0] == 3, bad, sums[0] / hits[0] * 3, sums[1] / hits[0] * 3, sums[2] / hits[0] * 3);
  return 0;
}
