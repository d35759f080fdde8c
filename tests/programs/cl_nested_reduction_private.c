/* Reductions of serialised nested parallel regions (and of orphaned loops inside them)
   onto variables private to the outer region's threads, and onto a shared one: each
   outer thread's inner region folds into its own copy; the shared total needs the
   outer reduction. */
#include <stdio.h>
#include <omp.h>

#define N 40

int main(void) {
  long totals[4] = {0, 0, 0, 0};
  int bads[4] = {0, 0, 0, 0}, bad = 0;
  #pragma omp target teams num_teams(2) thread_limit(32) map(tofrom: totals, bads)
  {
    int t = omp_get_team_num();
    long team_total = 0;
    int team_bad = 0;
    #pragma omp parallel reduction(+: team_total, team_bad)
    {
      int id = omp_get_thread_num();
      long mine = 0;                       /* private to this outer thread */
      double scaled = 1.0;
      #pragma omp parallel for reduction(+: mine) reduction(*: scaled)
      for (int i = 0; i < N; i++) {
        mine += i + id;
        scaled *= 1.0 + (i == 3);
      }
      long again = 0;
      #pragma omp parallel
      {
        #pragma omp for reduction(+: again)
        for (int i = 0; i < N; i++)
          again += 2;
      }
      team_bad += (mine != (long)N * (N - 1) / 2 + (long)N * id) + (scaled != 2.0) + (again != 2 * N);
      team_total += mine - (long)N * id;
    }
    if (t < 4) {
      totals[t] = team_total;
      bads[t] = team_bad;
    }
  }
  for (int t = 0; t < 4; t++) bad += bads[t];
  int nonzero = 0;
  long first = -1, ok = 1;
  for (int t = 0; t < 4; t++)
    if (totals[t]) {
      nonzero++;
      if (first < 0) first = totals[t] / 780;
      ok = ok && totals[t] % 780 == 0;
    }
  printf("bad %d, teams with totals %s, totals are multiples of the per-thread sum: %ld\n", bad,
         nonzero >= 1 ? "some" : "none", ok);
  return bad;
}
