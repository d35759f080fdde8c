/* declare target functions holding parallel regions, called from the sequential part of
   target teams regions: a parallel for writing through a pointer argument, a parallel
   region with a reduction whose result the function returns, a parallel region with
   master/barrier/for that works on a team-shared array passed by the team master, and a
   function that calls another parallel-holding function twice.  The master uses each
   result in the next call; teams share out the rows. */
#include <stdio.h>
#include <omp.h>

#define MAXTEAMS 3
#define ROWS 5
#define N 512

#pragma omp declare target
static void fill(int *a, int n, int base, int step) {
  #pragma omp parallel for
  for (int i = 0; i < n; i++)
    a[i] = base + step * i;
}

static long sum_mod(const int *a, int n, int m) {
  long s = 0;
  #pragma omp parallel for reduction(+: s)
  for (int i = 0; i < n; i++)
    s += a[i] % m;
  return s;
}

static int smooth(int *a, int *tmp, int n, int *threads_seen) {
  int changed = 0;
  #pragma omp parallel
  {
    #pragma omp master
    *threads_seen = omp_get_num_threads();
    #pragma omp for
    for (int i = 0; i < n; i++)
      tmp[i] = (a[i > 0 ? i - 1 : i] + 2 * a[i] + a[i < n - 1 ? i + 1 : i]) / 4;
    #pragma omp for reduction(+: changed)
    for (int i = 0; i < n; i++) {
      changed += tmp[i] != a[i];
      a[i] = tmp[i];
    }
  }
  return changed;
}

static long fill_twice(int *a, int n, int seed) {
  fill(a, n, seed, 3);
  long first = sum_mod(a, n, 11);
  fill(a, n, (int)first, 1);
  return first + sum_mod(a, n, 5);
}
#pragma omp end declare target

int main(void) {
  static int rows[ROWS][N];
  long results[ROWS][4];
  int threads_ok[ROWS] = {0};
  int nteams = 0;

  #pragma omp target teams num_teams(MAXTEAMS) thread_limit(64) map(tofrom: rows, results, threads_ok, nteams)
  {
    int t = omp_get_team_num();
    if (t == 0) nteams = omp_get_num_teams();
    int local[N], tmp[N];                    /* team-shared, passed to the callees */
    for (int r = t; r < ROWS; r += omp_get_num_teams()) {
      int threads = 0;
      fill(rows[r], N, r, 2);
      long s1 = sum_mod(rows[r], N, 7);
      fill(local, N, (int)(s1 % 100), 0);   /* uses the previous call's result */
      local[N / 2] = 1000 + r;
      int passes = 0, changed;
      do {
        changed = smooth(local, tmp, N, &threads);
        passes++;
      } while (changed > 0 && passes < 400);
      long s2 = sum_mod(local, N, 1000003);
      results[r][0] = s1;
      results[r][1] = s2;
      results[r][2] = passes;
      results[r][3] = fill_twice(rows[r], N, (int)s2 % 50);
      threads_ok[r] = threads >= 1 && threads <= 64;
    }
  }
  int ok = nteams >= 1 && nteams <= MAXTEAMS;
  for (int r = 0; r < ROWS; r++)
    ok = ok && threads_ok[r];
  printf("teams and threads ok %d\n", ok);
  for (int r = 0; r < ROWS; r++)
    printf("row %d: s1 %ld s2 %ld passes %ld twice %ld\n", r, results[r][0], results[r][1], results[r][2],
           results[r][3]);
  return 0;
}
