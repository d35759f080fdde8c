/* A team master's while loop around parallel regions with a data-dependent trip count:
   Jacobi relaxation on a team-shared grid until the largest change (a max reduction,
   exact in any order) drops below a tolerance, with a sequential convergence test and
   an early-exit break in the master's loop; the iteration count the master reaches
   is the same on every device.  Teams share out five problems (different sources). */
#include <stdio.h>
#include <omp.h>

#define MAXTEAMS 3
#define PROBLEMS 5
#define N 32

int main(void) {
  int iters[PROBLEMS];
  double mid[PROBLEMS], last_change[PROBLEMS];
  int nteams = 0;

  #pragma omp target teams num_teams(MAXTEAMS) thread_limit(64) map(tofrom: iters, mid, last_change, nteams)
  {
    if (omp_get_team_num() == 0) nteams = omp_get_num_teams();
    double u[N], v[N];
    for (int p = omp_get_team_num(); p < PROBLEMS; p += omp_get_num_teams()) {
      double source = 1.0 + 4 * p;
      for (int i = 0; i < N; i++) u[i] = 0.0;
      int it = 0;
      double change = 1.0;
      while (1) {
        change = 0.0;
        #pragma omp parallel for reduction(max: change)
        for (int i = 0; i < N; i++) {
          double left = i > 0 ? u[i - 1] : 0.0, right = i < N - 1 ? u[i + 1] : 0.0;
          v[i] = 0.5 * (left + right) + (i == N / 2 ? source : 0.0) * 0.5;
          double d = v[i] > u[i] ? v[i] - u[i] : u[i] - v[i];
          change = change > d ? change : d;
        }
        #pragma omp parallel for
        for (int i = 0; i < N; i++)
          u[i] = v[i];
        it++;
        if (change < 1e-3) break;                /* sequential convergence test */
        if (it >= 20000) break;
      }
      iters[p] = it;
      mid[p] = u[N / 2];
      last_change[p] = change;
    }
  }
  printf("teams in range %d\n", nteams >= 1 && nteams <= MAXTEAMS);
  for (int p = 0; p < PROBLEMS; p++)
    printf("problem %d: iterations %d, u[mid] %.6f, converged %d\n", p, iters[p], mid[p],
           last_change[p] < 1e-3);
  return 0;
}
