/* teams distribute with dist_schedule(static) and dist_schedule(static, 7), each chunk
   run by an inner parallel for; every iteration exactly once overall. */
#include <stdio.h>
#include <omp.h>
#define N 1000
int main(void) {
  int hits[N] = {0}, hits2[N] = {0};
  #pragma omp target teams distribute dist_schedule(static) num_teams(3) thread_limit(32) map(tofrom: hits)
  for (int i = 0; i < N; i++) {
    #pragma omp atomic
    hits[i] += 1;
  }
  #pragma omp target teams num_teams(4) thread_limit(32) map(tofrom: hits2)
  #pragma omp distribute parallel for dist_schedule(static, 7)
  for (int i = 0; i < N; i++) {
    #pragma omp atomic
    hits2[i] += 1;
  }
  int bad = 0;
  for (int i = 0; i < N; i++) bad += hits[i] != 1 || hits2[i] != 1;
  printf("bad %d\n", bad);
  return 0;
}
