/* omp for schedule(static), schedule(static, 4) and schedule(static, 1) nowait inside a
   parallel region of target teams; each iteration runs once per team. */
#include <stdio.h>
#include <omp.h>
#define N 517
int main(void) {
  int a[N] = {0}, b[N] = {0}, c[N] = {0};
  int teams = 1;
  #pragma omp target teams num_teams(2) thread_limit(64) map(tofrom: a, b, c, teams)
  {
    if (omp_get_team_num() == 0) teams = omp_get_num_teams();
    #pragma omp parallel
    {
      #pragma omp for schedule(static)
      for (int i = 0; i < N; i++) {
        #pragma omp atomic
        a[i] += 1;
      }
      #pragma omp for schedule(static, 4) nowait
      for (int i = 0; i < N; i++) {
        #pragma omp atomic
        b[i] += 2;
      }
      #pragma omp for schedule(static, 1)
      for (int i = N - 1; i >= 0; i--) {
        #pragma omp atomic
        c[i] += 3;
      }
    }
  }
  int bad = 0;
  for (int i = 0; i < N; i++) bad += a[i] != teams || b[i] != 2 * teams || c[i] != 3 * teams;
  printf("bad %d\n", bad);
  return 0;
}
