/* Team-shared structs: a struct with an array member and a nested struct, an array of
   structs (one element per thread, filled through a declare target function taking a
   pointer) and struct copies by assignment, all declared in the sequential part of a
   target teams region, updated by threads of a parallel region and read back by the
   team master; a critical section keeps a consistent multi-field update of a struct in
   mapped memory (critical sections guard global memory here: compute-sanitizer's
   racecheck does not see the lock's ordering of shared memory). */
#include <stdio.h>
#include <omp.h>

#define MAXTEAMS 3
#define NB 48

struct stats { int count; long sum; int max; };
struct block { int id; double w[NB]; struct stats st; };
struct pair { int key; int val; };

#pragma omp declare target
static void record(struct stats *s, int v) {
  s->count += 1;
  s->sum += v;
  if (v > s->max) s->max = v;
}
#pragma omp end declare target

#define MAXT 64

int main(void) {
  struct stats totals[MAXTEAMS];
  int team_ok[MAXTEAMS] = {0};
  long team_sig[MAXTEAMS] = {0};
  int nteams = 0;

  for (int t = 0; t < MAXTEAMS; t++) { totals[t].count = 0; totals[t].sum = 0; totals[t].max = -1; }

  #pragma omp target teams num_teams(MAXTEAMS) thread_limit(MAXT) map(tofrom: team_ok, team_sig, nteams, totals)
  {
    int t = omp_get_team_num();
    struct block blk;
    struct pair pairs[NB];
    struct stats per_thread[MAXT];
    if (t == 0) nteams = omp_get_num_teams();
    blk.id = 10 + t;
    blk.st.count = 0; blk.st.sum = 0; blk.st.max = -1;
    for (int i = 0; i < MAXT; i++) { per_thread[i].count = 0; per_thread[i].sum = 0; per_thread[i].max = -1; }
    for (int i = 0; i < NB; i++) { blk.w[i] = 0.0; pairs[i].key = -1; pairs[i].val = 0; }

    #pragma omp parallel
    {
      int id = omp_get_thread_num(), n = omp_get_num_threads();
      #pragma omp for
      for (int i = 0; i < NB; i++) {
        blk.w[i] = i * 0.25 + blk.id;
        pairs[i].key = NB - 1 - i;
        pairs[i].val = i * i;
      }
      for (int i = id; i < NB; i += n) {
        #pragma omp critical
        record(&totals[t], pairs[i].val + t);
      }
      if (id < MAXT)
        record(&per_thread[id], id);
    }
    /* sequential: struct copies and checks */
    for (int i = 0; i < MAXT; i++)
      if (per_thread[i].count > 0) record(&blk.st, per_thread[i].max);
    struct stats copy = totals[t];
    struct block snapshot = blk;
    int ok = copy.count == NB && copy.max == (NB - 1) * (NB - 1) + t;
    long want = 0;
    for (int i = 0; i < NB; i++) want += i * i + t;
    ok = ok && copy.sum == want;
    int n = snapshot.st.count;
    ok = ok && n >= 1 && snapshot.st.sum == (long)n * (n - 1) / 2 && snapshot.st.max == n - 1;
    for (int i = 0; i < NB; i++)
      ok = ok && snapshot.w[i] == i * 0.25 + 10 + t && pairs[i].key + i == NB - 1;
    blk.id = -blk.id;

    #pragma omp parallel for reduction(+: want)
    for (int i = 0; i < NB; i++)                 /* reads the master's new id and the snapshot */
      want += (blk.id == -(10 + t)) + (long)(snapshot.w[i] * 4) + pairs[pairs[i].key].val;

    team_ok[t] = ok;
    team_sig[t] = want;
  }
  int all_ok = nteams >= 1 && nteams <= MAXTEAMS;
  for (int t = 0; t < nteams; t++) {
    long want = 0;
    for (int i = 0; i < NB; i++) want += i * i + t + 1 + i + 4 * (10 + t) + (NB - 1 - i) * (NB - 1 - i);
    all_ok = all_ok && team_ok[t] && team_sig[t] == want;
  }
  printf("struct team-shared ok: %d\n", all_ok);
  printf("team 0 signature %ld\n", team_sig[0]);
  return 0;
}
