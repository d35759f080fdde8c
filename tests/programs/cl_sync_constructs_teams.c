/* master, single (with and without nowait), critical (unnamed and two names) and
   atomic inside parallel regions of target teams, checked across teams: critical
   sections exclude every thread of every team (a non-atomic read-modify-write of a
   mapped variable and a two-field max/argmax stay exact), single runs once per team per
   encounter and its implicit barrier publishes its write, single nowait in a loop runs
   once per iteration, master is thread 0 and runs once per team. */
#include <stdio.h>
#include <omp.h>

#define MAXTEAMS 4
#define ITERS 5

int main(void) {
  long counter = 0;                 /* updated only inside critical, by every thread of every team */
  int best = -1, best_at = -1;      /* max and argmax, under a named critical */
  double fsum = 0.0;                /* under another named critical */
  int single_runs[MAXTEAMS] = {0}, nowait_runs[MAXTEAMS] = {0}, master_runs[MAXTEAMS] = {0};
  int bad[MAXTEAMS] = {0}, threads[MAXTEAMS] = {0};
  int nteams = 0;

  #pragma omp target teams num_teams(MAXTEAMS) thread_limit(32) \
      map(tofrom: counter, best, best_at, fsum, single_runs, nowait_runs, master_runs, bad, threads, nteams)
  {
    int t = omp_get_team_num();
    if (t == 0) nteams = omp_get_num_teams();
    int published = -1, singles = 0, nowaits = 0, masters = 0, errors = 0, n = 0;

    #pragma omp parallel
    {
      int id = omp_get_thread_num();
      #pragma omp single
      n = omp_get_num_threads();
      for (int it = 0; it < ITERS; it++) {
        #pragma omp critical
        {
          long v = counter;           /* not atomic: only the critical section makes it exact */
          counter = v + 1;
        }
        #pragma omp single
        {
          published = it * 10 + t;
          singles++;
        }
        if (published != it * 10 + t) {   /* single's barrier published the value */
          #pragma omp atomic
          errors += 1;
        }
        #pragma omp single nowait
        nowaits++;
        #pragma omp master
        {
          masters++;
          if (omp_get_thread_num() != 0) {
            #pragma omp atomic
            errors += 100;
          }
        }
        #pragma omp barrier
      }
      int key = (id * 37 + t * 11) % 101;
      #pragma omp critical (argmax)
      {
        if (key > best || (key == best && t * 1000 + id < best_at)) {
          best = key;
          best_at = t * 1000 + id;
        }
      }
      #pragma omp critical (floats)
      fsum += 0.25;
    }
    single_runs[t] = singles;
    nowait_runs[t] = nowaits;
    master_runs[t] = masters;
    bad[t] = errors;
    threads[t] = n;
  }
  long want = 0;
  int ok = nteams >= 1 && nteams <= MAXTEAMS, want_best = -1, want_at = -1;
  for (int t = 0; t < nteams; t++) {
    want += (long)threads[t] * ITERS;
    ok = ok && single_runs[t] == ITERS && nowait_runs[t] == ITERS && master_runs[t] == ITERS && bad[t] == 0;
    for (int id = 0; id < threads[t]; id++) {
      int key = (id * 37 + t * 11) % 101;
      if (key > want_best || (key == want_best && t * 1000 + id < want_at)) { want_best = key; want_at = t * 1000 + id; }
    }
  }
  double fwant = 0.0;
  for (long i = 0; i < want / ITERS; i++) fwant += 0.25;
  printf("single/nowait/master once per encounter and team: %d\n", ok);
  printf("critical counter exact: %d, argmax exact: %d, float sum exact: %d\n", counter == want,
         best == want_best && best_at == want_at, fsum == fwant);
  return 0;
}
