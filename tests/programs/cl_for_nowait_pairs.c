/* nowait on worksharing loops inside a parallel region of target teams: two
   schedule(static) loops with the same iteration count (and two static,k ones with the
   same chunk) give each thread the same iterations, so the second may read what the
   first wrote without a barrier (OpenMP 4.5 2.7.1); independent nowait loops followed
   by an explicit barrier; a dynamic nowait loop then a barrier; and a nowait loop as
   the last construct of the region (its end is still a barrier). */
#include <stdio.h>
#include <omp.h>

#define MAXTEAMS 2
#define N 600

int main(void) {
  int bad[MAXTEAMS] = {0};
  long sums[MAXTEAMS] = {0};
  int nteams = 0;

  #pragma omp target teams num_teams(MAXTEAMS) thread_limit(64) map(tofrom: bad, sums, nteams)
  {
    int t = omp_get_team_num();
    if (t == 0) nteams = omp_get_num_teams();
    int a[N], b[N], c[N];
    int errors = 0;
    int k = 4 + t;
    long total = 0;

    #pragma omp parallel
    {
      int mine = 0;
      /* same static schedule: no barrier needed between producer and consumer */
      #pragma omp for schedule(static) nowait
      for (int i = 0; i < N; i++) a[i] = i * 3 + t;
      #pragma omp for schedule(static) nowait
      for (int i = 0; i < N; i++) {
        b[i] = a[i] + 1;
        mine += a[i] != i * 3 + t;
      }
      #pragma omp barrier                       /* the next pair deals iterations differently */
      #pragma omp for schedule(static, k) nowait
      for (int i = 0; i < N; i++) c[i] = b[i] * 2;
      #pragma omp for schedule(static, k) nowait
      for (int i = 0; i < N; i++) mine += c[i] != (i * 3 + t + 1) * 2;
      #pragma omp barrier
      /* independent nowait loops, then a barrier, then a loop reading all of them */
      #pragma omp for schedule(dynamic, 8) nowait
      for (int i = 0; i < N; i++) a[i] = -i;
      #pragma omp for schedule(guided) nowait
      for (int i = 0; i < N; i++) b[i] = 2 * i;
      #pragma omp barrier
      #pragma omp for schedule(static, 1) reduction(+: total)
      for (int i = 0; i < N; i++) {
        mine += a[N - 1 - i] + b[N - 1 - i] != N - 1 - i;
        total += a[(i * 7) % N] + b[i] + c[i];
      }
      #pragma omp atomic
      errors += mine;
      /* nowait as the region's last construct: the region's end joins the threads */
      #pragma omp for nowait
      for (int i = 0; i < N; i++) c[i] = a[i] + b[i];
    }
    long check = 0;
    for (int i = 0; i < N; i++) check += c[i];
    bad[t] = errors + (check != (long)N * (N - 1) / 2);
    sums[t] = total;
  }
  int b = 0, same = 1;
  for (int t = 0; t < nteams; t++) {
    b += bad[t];
    long want = 0;
    for (int i = 0; i < N; i++) want += -((i * 7) % N) + 2 * i + (i * 3 + t + 1) * 2;
    same = same && sums[t] == want;
  }
  printf("teams in range %d\n", nteams >= 1 && nteams <= MAXTEAMS);
  printf("nowait errors %d, sums ok %d, team 0 sum %ld\n", b, same, sums[0]);
  return 0;
}
