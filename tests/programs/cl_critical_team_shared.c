/* Critical sections on team-shared data: variables of a target teams region's
   sequential part (a scalar, a struct updated field by field, an array element, a
   variable reached through its address) and a firstprivate by-value capture, updated by
   every thread of a parallel region inside unnamed and named critical constructs, then
   read back by the team master; a second parallel region checks every thread sees the
   totals.  Each team keeps its own copies. */
#include <stdio.h>
#include <omp.h>

#define MAXTEAMS 4
#define NT 96

struct range { int lo, hi; long sum; };

int main(void) {
  long out[MAXTEAMS][6];
  int seen_ok[MAXTEAMS] = {0};
  int nteams = 0, bias = 7;

  #pragma omp target teams num_teams(MAXTEAMS) thread_limit(NT) firstprivate(bias) \
      map(tofrom: out, seen_ok, nteams)
  {
    int t = omp_get_team_num();
    if (t == 0) nteams = omp_get_num_teams();
    long count = 0;
    double weight = 0.0;
    struct range r = { 1 << 30, -1, 0 };
    int hist[4] = { 0, 0, 0, 0 };
    int nthreads = 0;
    long *where = &count;

    #pragma omp parallel num_threads(NT)
    {
      int id = omp_get_thread_num();
      #pragma omp critical
      {
        count += id + 1;
        weight += 0.25 * (id % 8);
        bias += 1;
      }
      #pragma omp critical (range)
      {
        if (id < r.lo) r.lo = id;
        if (id > r.hi) r.hi = id;
        r.sum += (long)id * id;
      }
      #pragma omp critical (hist)
      hist[id % 4] += 1;
      #pragma omp master
      nthreads = omp_get_num_threads();
    }
    /* what the totals must be for this team's thread count (1 on the host device) */
    long n = nthreads, sq = 0, w = 0;
    int want_hist[4] = { 0, 0, 0, 0 };
    for (long i = 0; i < n; i++) { sq += i * i; w += i % 8; want_hist[i % 4]++; }
    out[t][0] = count == n * (n + 1) / 2;
    out[t][1] = (long)(weight * 4.0) == w;
    out[t][2] = r.lo == 0 && r.hi == n - 1;
    out[t][3] = r.sum == sq;
    out[t][4] = hist[0] == want_hist[0] && hist[1] == want_hist[1] && hist[2] == want_hist[2] &&
                hist[3] == want_hist[3];
    out[t][5] = bias - nthreads;

    int agree = 0;
    #pragma omp parallel num_threads(NT)
    {
      #pragma omp critical
      {
        *where += 0;                      /* through the pointer, still under the lock */
        agree += count == (long)nthreads * (nthreads + 1) / 2 && r.hi == nthreads - 1;
      }
    }
    seen_ok[t] = agree == nthreads;
  }

  int ok = nteams >= 1 && nteams <= MAXTEAMS;
  long right[6] = { 0, 0, 0, 0, 0, 0 };
  for (int t = 0; t < nteams; t++) {
    for (int k = 0; k < 5; k++) right[k] += out[t][k];
    right[5] += out[t][5] == 7;
    ok = ok && seen_ok[t];
  }
  for (int k = 0; k < 6; k++) {
    printf("check %d: %s\n", k, right[k] == nteams ? "every team" : "FAILED");
    ok = ok && right[k] == nteams;
  }
  printf("teams agree: %d\n", ok);
  return ok ? 0 : 1;
}
