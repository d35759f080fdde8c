/* declare target functions called from inside parallel regions of a target teams
   region: one holding `parallel for` (nested: each calling thread's inner team does the
   whole loop), the same function also called from the team master's sequential code
   (there its region runs with the team), orphaned `for`, `single`, `master`, `critical`
   and `barrier` in callees that bind to the caller's region, and a callee of a callee. */
#include <stdio.h>
#include <omp.h>

#define MAXTEAMS 2
#define MAXT 16
#define N 64

#pragma omp declare target
static int count_below(const int *a, int n, int limit) {
  int c = 0;
  #pragma omp parallel for reduction(+: c)
  for (int i = 0; i < n; i++)
    c += a[i] < limit;
  return c;
}

static void orphan_fill(int *a, int n, int v) {
  #pragma omp for
  for (int i = 0; i < n; i++)
    a[i] = v + i;
}

static void orphan_single(int *flag, int *runs) {
  #pragma omp single
  {
    *flag += 1;
    *runs += 1;
  }
}

static void orphan_master_barrier(int *word, int v) {
  #pragma omp master
  *word = v;
  #pragma omp barrier
}

static void orphan_critical(long *acc, int v) {
  #pragma omp critical
  *acc = *acc * 3 % 1000003 + v;   /* order-dependent, so only the count is checked */
  #pragma omp atomic
  acc[1] += 1;
}

static int nested_count(const int *a, int n) {
  return count_below(a, n, n / 2) + count_below(a, n, n);
}
#pragma omp end declare target

int main(void) {
  int bad[MAXTEAMS] = {0}, seq_counts[MAXTEAMS] = {0}, par_ok[MAXTEAMS] = {0}, single_runs[MAXTEAMS] = {0};
  long crit_count[MAXTEAMS] = {0};
  int nteams = 0;

  #pragma omp target teams num_teams(MAXTEAMS) thread_limit(MAXT) \
      map(tofrom: bad, seq_counts, par_ok, single_runs, crit_count, nteams)
  {
    int t = omp_get_team_num();
    if (t == 0) nteams = omp_get_num_teams();
    int a[N], word = -1, flag = 0, runs = 0, nthreads = 0, b = 0, nested_ok = 0;
    long acc[2] = {0, 0};
    for (int i = 0; i < N; i++) a[i] = (i * 5) % N;
    int from_seq = count_below(a, N, N / 2) + 0;    /* called from sequential code */

    #pragma omp parallel
    {
      int id = omp_get_thread_num();
      #pragma omp single
      nthreads = omp_get_num_threads();
      /* nested: every calling thread runs the whole inner loop */
      int mine = count_below(a, N, N / 2);
      int both = nested_count(a, N);
      if (mine == N / 2 && both == N / 2 + N) {
        #pragma omp atomic
        nested_ok += 1;
      }
      #pragma omp barrier
      orphan_fill(a, N, 100 + t);                /* implicit barrier at its end */
      if (a[(id * 7) % N] != 100 + t + (id * 7) % N) {
        #pragma omp atomic
        b += 1;
      }
      orphan_single(&flag, &runs);
      orphan_master_barrier(&word, 7 * t + 1);
      if (word != 7 * t + 1 || flag != 1) {
        #pragma omp atomic
        b += 1;
      }
      orphan_critical(acc, id);               /* team-shared, updated under the callee's critical */
    }
    bad[t] = b;
    seq_counts[t] = from_seq;
    par_ok[t] = nested_ok == nthreads && nthreads >= 1;
    single_runs[t] = runs;
    crit_count[t] = acc[1] - nthreads;
  }
  int b = 0, ok = nteams >= 1 && nteams <= MAXTEAMS;
  for (int t = 0; t < nteams; t++) {
    b += bad[t];
    ok = ok && seq_counts[t] == N / 2 && par_ok[t] && single_runs[t] == 1 && crit_count[t] == 0;
  }
  printf("orphaned constructs: bad %d\n", b);
  printf("callees from sequential and nested code agree: %d\n", ok);
  return 0;
}
