/* Team-shared arrays too large for shared memory (> 48 KiB): a 64 KiB double array and
   two 40 KiB int arrays declared in the sequential part of a target teams region, filled
   by the team master, updated by the parallel regions and checked again sequentially.
   Each team has its own copy (on the GPU a per-team frame of the global-memory team
   stack); a small array declared beside them stays in shared memory. */
#include <stdio.h>
#include <omp.h>

#define MAXTEAMS 3
#define BIG 8192          /* 8192 doubles = 64 KiB */
#define MID 10240         /* 10240 ints = 40 KiB, two of them */

int main(void) {
  long team_sum[MAXTEAMS] = {0};
  int team_ok[MAXTEAMS] = {0};
  int nteams = 0;

  #pragma omp target teams num_teams(MAXTEAMS) thread_limit(128) map(tofrom: team_sum, team_ok, nteams)
  {
    int t = omp_get_team_num();
    double big[BIG];
    int a[MID], b[MID];
    int small[32];
    if (t == 0) nteams = omp_get_num_teams();
    for (int i = 0; i < BIG; i++) big[i] = i + t;
    for (int i = 0; i < MID; i++) { a[i] = i % 97; b[i] = 0; }
    for (int i = 0; i < 32; i++) small[i] = i * (t + 1);

    #pragma omp parallel
    {
      int id = omp_get_thread_num(), n = omp_get_num_threads();
      for (int i = id; i < BIG; i += n)
        big[i] = 2.0 * big[i] + small[i % 32];
      #pragma omp barrier
      #pragma omp for
      for (int i = 0; i < MID; i++)
        b[i] = a[MID - 1 - i] + (int)big[i % BIG] % 5;
    }
    /* sequential: the master reads everything the threads wrote */
    int ok = 1;
    for (int i = 0; i < BIG; i++)
      ok = ok && big[i] == 2.0 * (i + t) + (i % 32) * (t + 1);
    long s = 0;
    for (int i = 0; i < MID; i++) {
      ok = ok && b[i] == (MID - 1 - i) % 97 + (int)(2.0 * (i % BIG + t) + (i % BIG % 32) * (t + 1)) % 5;
      s += b[i];
    }
    for (int i = 0; i < MID; i++) a[i] = b[i] * 2;

    #pragma omp parallel for reduction(+: s)
    for (int i = 0; i < MID; i++)
      s += a[i] - b[i] + (big[i % BIG] > 0.0);

    team_sum[t] = s;
    team_ok[t] = ok;
  }
  int all_ok = nteams >= 1 && nteams <= MAXTEAMS;
  for (int t = 0; t < nteams; t++) all_ok = all_ok && team_ok[t];
  printf("large team-shared arrays ok: %d\n", all_ok);
  for (int t = 0; t < nteams; t++) {         /* the host's answer for each team */
    long e = 0;
    for (int i = 0; i < MID; i++)
      e += (2.0 * (i % BIG + t) + (i % BIG % 32) * (t + 1) > 0.0) + 2 * ((MID - 1 - i) % 97 + (int)(2.0 * (i % BIG + t) + (i % BIG % 32) * (t + 1)) % 5);
    all_ok = all_ok && team_sum[t] == e;
  }
  printf("team sums ok: %d, team 0 sum %ld\n", all_ok, team_sum[0]);

  /* a 48 KiB + 16 KiB pair in a target region without teams, reused across regions */
  int ok2 = 0;
  long tot = 0;
  #pragma omp target map(tofrom: ok2, tot)
  {
    int x[12288], y[4096];                      /* 48 KiB and 16 KiB */
    #pragma omp parallel for
    for (int i = 0; i < 12288; i++) x[i] = i;
    #pragma omp parallel for
    for (int i = 0; i < 4096; i++) y[i] = x[3 * i] + x[3 * i + 1] + x[3 * i + 2];
    long s = 0;
    for (int i = 0; i < 4096; i++) s += y[i];
    ok2 = s == (long)12288 * 12287 / 2;
    tot = s;
  }
  printf("no-teams pair ok: %d, total %ld\n", ok2, tot);
  return 0;
}
