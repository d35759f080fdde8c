/* num_threads and if clauses whose values the team master computes in sequential code
   of a target teams region: num_threads(w) with w a team-shared variable that changes
   between regions (w = 1 + (step * 7 + team) % 9), if(cond) false (a team of one) and
   true, and a parallel region in a sequential loop whose trip count depends on the
   previous region's result.  Each region checks n <= w, ids 0..n-1 and exact coverage. */
#include <stdio.h>
#include <omp.h>

#define MAXTEAMS 4
#define STEPS 8
#define N 77

int main(void) {
  int bad[MAXTEAMS] = {0}, steps_done[MAXTEAMS] = {0};
  long work[MAXTEAMS] = {0};
  int nteams = 0, flag = 0;

  #pragma omp target teams num_teams(MAXTEAMS) thread_limit(32) map(tofrom: bad, steps_done, work, nteams) \
      map(to: flag)
  {
    int t = omp_get_team_num();
    if (t == 0) nteams = omp_get_num_teams();
    int b = 0, step = 0;
    long total = 0;
    int remaining = STEPS;
    while (remaining > 0) {                   /* trip count decided by the regions' results */
      int w = 1 + (step * 7 + t) % 9;
      int n = 0, idsum = 0, count = 0;
      long part = 0;
      #pragma omp parallel num_threads(w) reduction(+: part)
      {
        int id = omp_get_thread_num();
        #pragma omp single
        n = omp_get_num_threads();
        #pragma omp atomic
        idsum += id;
        #pragma omp atomic
        count += 1;
        #pragma omp for schedule(static)
        for (int i = 0; i < N; i++)
          part += i + step;
      }
      b += n < 1 || n > w || count != n || idsum != n * (n - 1) / 2;
      b += part != (long)N * (N - 1) / 2 + (long)N * step;
      total += part;
      remaining -= 1 + (part % 2 == 0 && remaining > 4);   /* skip a step on even sums */
      step++;
    }

    /* if(false): a team of one; if(true) with num_threads(2): at most 2 */
    int n_false = -1, n_true = -1, id_false = -1;
    #pragma omp parallel if(flag) num_threads(8)
    {
      n_false = omp_get_num_threads();
      id_false = omp_get_thread_num();
    }
    #pragma omp parallel if(!flag) num_threads(2)
    {
      #pragma omp master
      n_true = omp_get_num_threads();
    }
    b += n_false != 1 || id_false != 0 || n_true < 1 || n_true > 2;
    bad[t] = b;
    steps_done[t] = step;
    work[t] = total;
  }
  int ok = nteams >= 1 && nteams <= MAXTEAMS, b = 0, same = 1;
  for (int t = 0; t < nteams; t++) {
    b += bad[t];
    same = same && steps_done[t] == steps_done[0] && work[t] == work[0];
  }
  printf("teams ok %d, bad %d, all teams same steps/work %d\n", ok, b, same);
  printf("steps %d work %ld\n", steps_done[0], work[0]);
  return 0;
}
