/* Nested parallel regions inside target regions (the inner ones may be serialised):
   omp_get_level is 1, 2, 3 at each depth; omp_get_ancestor_thread_num and
   omp_get_team_size agree with the enclosing regions' thread numbers and sizes;
   omp_in_parallel holds exactly when some enclosing region has more than one thread;
   each inner team's ids are 0..n-1; an inner parallel for runs every iteration once per
   outer thread and an inner single once per inner team.  Printed as counts of failed
   checks, which do not depend on how many threads any region gets. */
#include <stdio.h>
#include <omp.h>

#define MAXTEAMS 2
#define MAXT 8
#define N 40

int main(void) {
  int bad[MAXTEAMS] = {0}, outer_threads[MAXTEAMS] = {0}, inner_iters[MAXTEAMS] = {0}, singles[MAXTEAMS] = {0};
  int deep[MAXTEAMS] = {0};
  int nteams = 0;

  #pragma omp target teams num_teams(MAXTEAMS) thread_limit(32) \
      map(tofrom: bad, outer_threads, inner_iters, singles, deep, nteams)
  {
    int t = omp_get_team_num();
    if (t == 0) nteams = omp_get_num_teams();
    int b = 0, iters = 0, single_runs = 0, deep_runs = 0, outer_n = 0;
    int inner_idsum[MAXT], inner_count[MAXT];
    for (int i = 0; i < MAXT; i++) { inner_idsum[i] = 0; inner_count[i] = 0; }

    #pragma omp parallel num_threads(MAXT)
    {
      int oid = omp_get_thread_num(), on = omp_get_num_threads();
      #pragma omp single
      outer_n = on;
      if (omp_get_level() != 1 || omp_get_ancestor_thread_num(1) != oid || omp_get_team_size(1) != on
          || omp_in_parallel() != (on > 1)) {
        #pragma omp atomic
        b += 1;
      }
      #pragma omp parallel
      {
        int iid = omp_get_thread_num(), in = omp_get_num_threads();
        int e = omp_get_level() != 2 || omp_get_ancestor_thread_num(1) != oid || omp_get_team_size(1) != on
                || omp_get_ancestor_thread_num(2) != iid || omp_get_team_size(2) != in
                || omp_in_parallel() != (on > 1 || in > 1) || iid < 0 || iid >= in;
        if (e) {
          #pragma omp atomic
          b += 1;
        }
        #pragma omp atomic
        inner_idsum[oid] += iid;
        #pragma omp atomic
        inner_count[oid] += 1;
        #pragma omp for
        for (int i = 0; i < N; i++) {
          #pragma omp atomic
          iters += 1;
        }
        #pragma omp single
        {
          #pragma omp atomic
          single_runs += 1;
        }
        #pragma omp parallel num_threads(2)
        {
          if (omp_get_level() != 3 || omp_get_ancestor_thread_num(2) != iid || omp_get_ancestor_thread_num(1) != oid) {
            #pragma omp atomic
            b += 1;
          }
          #pragma omp master
          {
            #pragma omp atomic
            deep_runs += 1;
          }
        }
      }
      if (omp_get_level() != 1 || omp_get_thread_num() != oid) {
        #pragma omp atomic
        b += 1;
      }
    }
    /* each outer thread's inner team: ids 0..n-1 */
    for (int i = 0; i < outer_n && i < MAXT; i++) {
      int n = inner_count[i];
      b += n < 1 || inner_idsum[i] != n * (n - 1) / 2;
    }
    bad[t] = b;
    outer_threads[t] = outer_n;
    inner_iters[t] = iters;
    singles[t] = single_runs;
    deep[t] = deep_runs;
  }
  int b = 0, iters_ok = 1, singles_ok = 1, outer_ok = 1;
  for (int t = 0; t < nteams; t++) {
    b += bad[t];
    outer_ok = outer_ok && outer_threads[t] >= 1 && outer_threads[t] <= MAXT;
    iters_ok = iters_ok && inner_iters[t] == N * outer_threads[t];
    singles_ok = singles_ok && singles[t] == outer_threads[t] && deep[t] >= outer_threads[t];
  }
  printf("teams in range %d, outer sizes in range %d\n", nteams >= 1 && nteams <= MAXTEAMS, outer_ok);
  printf("level/ancestor/team-size/in_parallel failures %d\n", b);
  printf("inner for once per outer thread %d, inner single once per inner team %d\n", iters_ok, singles_ok);
  return 0;
}
