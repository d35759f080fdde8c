/* omp_get_team_num, omp_get_num_teams, omp_in_parallel, omp_get_level,
   omp_get_thread_num and omp_get_num_threads in and out of the parallel regions of
   target regions: in a teams region's sequential part the team number and count (the
   only queries allowed there) match what its parallel regions see; in a target region
   without teams the sequential part is level 0, thread 0 of 1, team 0 of 1, not in
   parallel, and a parallel region is level 1 with omp_in_parallel() == (n > 1); a
   declare target function answers for where it is called from; target parallel
   starts at level 1.  Printed: failed-check counts and derived invariants. */
#include <stdio.h>
#include <omp.h>

#define MAXTEAMS 4

#pragma omp declare target
static int where(void) {          /* 10 * level + (in parallel) */
  return 10 * omp_get_level() + omp_in_parallel();
}
#pragma omp end declare target

int main(void) {
  int seen_num[MAXTEAMS], seen_count[MAXTEAMS], bad[MAXTEAMS];
  int nteams = 0;
  for (int t = 0; t < MAXTEAMS; t++) { seen_num[t] = -1; seen_count[t] = -1; bad[t] = 0; }

  #pragma omp target teams num_teams(MAXTEAMS) thread_limit(32) map(tofrom: seen_num, seen_count, bad, nteams)
  {
    int t = omp_get_team_num(), nt = omp_get_num_teams();
    if (t == 0) nteams = nt;
    int b = 0;
    if (t >= 0 && t < MAXTEAMS) { seen_num[t] = t; seen_count[t] = nt; }
    #pragma omp parallel
    {
      int n = omp_get_num_threads(), id = omp_get_thread_num();
      int e = omp_get_team_num() != t || omp_get_num_teams() != nt || omp_get_level() != 1
              || omp_in_parallel() != (n > 1) || id < 0 || id >= n || where() != 10 + (n > 1);
      if (e) {
        #pragma omp atomic
        b += 1;
      }
    }
    /* the sequential part again after the region: the same answers */
    if (omp_get_team_num() != t || omp_get_num_teams() != nt) b += 100;
    #pragma omp parallel num_threads(1)
    {
      if (omp_get_level() != 1 || omp_in_parallel() || omp_get_num_threads() != 1 || omp_get_team_num() != t) {
        #pragma omp atomic
        b += 1000;
      }
    }
    if (t >= 0 && t < MAXTEAMS) bad[t] = b;
  }
  int ok = nteams >= 1 && nteams <= MAXTEAMS, b = 0;
  for (int t = 0; t < nteams; t++) {
    ok = ok && seen_num[t] == t && seen_count[t] == nteams;
    b += bad[t];
  }
  for (int t = nteams; t < MAXTEAMS; t++) ok = ok && seen_num[t] == -1;
  printf("teams regions: team numbers 0..n-1 with one count: %d, failed checks: %d\n", ok, b);

  /* target without teams */
  int seq[6], par_bad = 0, par_n = 0;
  #pragma omp target map(from: seq) map(tofrom: par_bad, par_n)
  {
    seq[0] = omp_get_level();
    seq[1] = omp_in_parallel();
    seq[2] = omp_get_thread_num() * 10 + omp_get_num_threads();
    seq[3] = omp_get_team_num() * 10 + omp_get_num_teams();
    seq[4] = where();
    #pragma omp parallel
    {
      int n = omp_get_num_threads();
      #pragma omp master
      par_n = n;
      if (omp_get_level() != 1 || omp_in_parallel() != (n > 1) || omp_get_team_num() != 0
          || omp_get_num_teams() != 1 || where() != 10 + (n > 1)) {
        #pragma omp atomic
        par_bad += 1;
      }
    }
    seq[5] = where();                        /* back at level 0 */
  }
  printf("target sequential part: level %d in_parallel %d thread/threads %d team/teams %d where %d after %d\n",
         seq[0], seq[1], seq[2], seq[3], seq[4], seq[5]);
  printf("target parallel part: failed checks %d, threads >= 1: %d\n", par_bad, par_n >= 1);

  /* target parallel: level 1 from the start */
  int tp_bad = 0;
  #pragma omp target parallel map(tofrom: tp_bad)
  {
    int n = omp_get_num_threads();
    if (omp_get_level() != 1 || omp_in_parallel() != (n > 1) || where() != 10 + (n > 1)) {
      #pragma omp atomic
      tp_bad += 1;
    }
  }
  printf("target parallel: failed checks %d\n", tp_bad);
  return 0;
}
