/* Team-shared scalars and small arrays: locals declared in the sequential part of a
   target teams region are shared by the threads of a later parallel region.  Threads
   update them (atomic, critical, single, per-thread slots), the team master reads them
   back in sequential code, and a second parallel region checks every thread sees the
   master's new values.  Also a pointer to a team-shared variable used inside the
   parallel region, and a team-shared loop bound. */
#include <stdio.h>
#include <omp.h>

#define MAXTEAMS 4
#define SLOTS 64

int main(void) {
  int team_ok[MAXTEAMS] = {0}, team_done[MAXTEAMS] = {0};
  long team_val[MAXTEAMS] = {0};
  int nteams_seen = 0;

  #pragma omp target teams num_teams(MAXTEAMS) thread_limit(64) \
      map(tofrom: team_ok, team_done, team_val, nteams_seen)
  {
    int t = omp_get_team_num();
    int counter = 0, nthreads = 0, bad = 0;
    double acc = 0.0;
    long idsum = 0;
    int slot[SLOTS];
    int hist[8];
    int limit = 40 + 10 * t;                   /* a team-shared loop bound */
    int *pc = &counter;                        /* a pointer to a team-shared scalar */
    for (int i = 0; i < SLOTS; i++) slot[i] = -1;
    for (int i = 0; i < 8; i++) hist[i] = 0;
    if (t == 0) nteams_seen = omp_get_num_teams();

    #pragma omp parallel
    {
      int id = omp_get_thread_num(), n = omp_get_num_threads();
      #pragma omp atomic
      *pc += 1;
      #pragma omp atomic
      idsum += id;
      #pragma omp critical
      acc += 0.5;
      if (id < SLOTS) slot[id] = id * 3 + t;
      #pragma omp atomic
      hist[id % 8] += 1;
      #pragma omp single
      nthreads = n;
    }
    /* sequential: the master sees every thread's update */
    int ok = counter == nthreads && idsum == (long)nthreads * (nthreads - 1) / 2 && acc == 0.5 * nthreads;
    int h = 0;
    for (int i = 0; i < 8; i++) h += hist[i];
    ok = ok && h == nthreads;
    for (int i = 0; i < SLOTS && i < nthreads; i++)
      ok = ok && slot[i] == i * 3 + t;
    counter = 1000 + t;                        /* new values for the next region */
    acc = -1.0;
    for (int i = 0; i < SLOTS; i++) slot[i] = i + 100 * t;

    #pragma omp parallel
    {
      int id = omp_get_thread_num(), n = omp_get_num_threads();
      int mine = counter == 1000 + t && acc == -1.0 && n == nthreads;
      for (int i = id; i < limit; i += n)
        mine = mine && slot[i % SLOTS] == i % SLOTS + 100 * t;
      if (!mine) {
        #pragma omp atomic
        bad += 1;
      }
      #pragma omp barrier
      #pragma omp master
      counter += 1;
    }
    team_ok[t] = ok && bad == 0 && counter == 1001 + t;
    team_val[t] = counter + (long)limit;
    team_done[t] = 1;
  }
  int teams = nteams_seen, all_ok = 1, done = 0;
  long v = 0;
  for (int t = 0; t < teams; t++) {
    all_ok = all_ok && team_ok[t];
    done += team_done[t];
    v += team_val[t] - 1001 - t - (40 + 10 * t);
  }
  printf("teams in range: %d\n", teams >= 1 && teams <= MAXTEAMS);
  printf("all teams ok: %d, teams done match: %d, values: %ld\n", all_ok, done == teams, v);
  return 0;
}
