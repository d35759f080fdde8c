/* atomic update, read, write and capture inside parallel regions of target teams:
   a captured fetch-and-add hands out unique tickets (checked as a permutation),
   per-team counters in team-shared memory and a global counter in mapped memory over
   all teams, update forms (+=, -=, |=, &=, ^=, ++, --, x = x op e), a capture of the
   new value, double and long long atomics, and atomic read in a later region. */
#include <stdio.h>
#include <omp.h>

#define MAXTEAMS 3
#define MAXT 64
#define PER 4

int main(void) {
  int global_ticket = 0;
  int owner[MAXTEAMS * MAXT * PER];
  long long big = 0;
  double dsum = 0.0;
  int bad[MAXTEAMS] = {0}, nthreads[MAXTEAMS] = {0};
  int nteams = 0;
  for (int i = 0; i < MAXTEAMS * MAXT * PER; i++) owner[i] = -1;

  #pragma omp target teams num_teams(MAXTEAMS) thread_limit(MAXT) \
      map(tofrom: global_ticket, owner, big, dsum, bad, nthreads, nteams)
  {
    int t = omp_get_team_num();
    if (t == 0) nteams = omp_get_num_teams();
    int local_ticket = 0, bits_or = 0, bits_and = -1, bits_xor = 0, up = 0, down = 1000, prod_like = 0;
    int taken[MAXT * PER];
    int errors = 0, n = 0;
    for (int i = 0; i < MAXT * PER; i++) taken[i] = 0;

    #pragma omp parallel
    {
      int id = omp_get_thread_num();
      #pragma omp single
      n = omp_get_num_threads();
      for (int r = 0; r < PER; r++) {
        int mine, g, after;
        #pragma omp atomic capture
        mine = local_ticket++;                 /* old value: 0 .. n*PER-1, each once */
        if (mine >= 0 && mine < MAXT * PER) {
          #pragma omp atomic
          taken[mine] += 1;
        }
        #pragma omp atomic capture
        { g = global_ticket; global_ticket += 1; }
        if (g >= 0 && g < MAXTEAMS * MAXT * PER) {
          #pragma omp atomic write
          owner[g] = t;
        }
        #pragma omp atomic capture
        after = prod_like = prod_like + 2;     /* new value: even, at most 2*n*PER */
        if (after % 2 != 0 || after < 2) {
          #pragma omp atomic
          errors += 1;
        }
      }
      #pragma omp atomic
      bits_or |= 1 << (id % 31);
      #pragma omp atomic
      bits_and &= ~(1 << (id % 31));
      #pragma omp atomic
      bits_xor ^= id + 1;
      #pragma omp atomic
      up++;
      #pragma omp atomic
      --down;
      #pragma omp atomic
      big += 1LL << 33;
      #pragma omp atomic
      dsum += 0.5;
    }
    /* sequential checks of the team-shared results */
    int e = errors;
    for (int i = 0; i < MAXT * PER; i++)
      e += taken[i] != (i < n * PER);
    e += local_ticket != n * PER || prod_like != 2 * n * PER || up != n || down != 1000 - n;
    int want_or = 0, want_xor = 0;
    for (int id = 0; id < n; id++) { want_or |= 1 << (id % 31); want_xor ^= id + 1; }
    e += bits_or != want_or || bits_and != ~want_or || bits_xor != want_xor;
    int poll_bad = 0;
    #pragma omp parallel
    {
      int polled;
      #pragma omp atomic read
      polled = up;                            /* every thread reads the final count */
      if (polled != n) {
        #pragma omp atomic
        poll_bad += 1;
      }
    }
    e += poll_bad;
    bad[t] = e;
    nthreads[t] = n;
  }
  int total = 0, e = 0;
  for (int t = 0; t < nteams; t++) { total += nthreads[t]; e += bad[t]; }
  int per_team_ok = 1;
  for (int t = 0; t < nteams; t++) {
    int c = 0;
    for (int i = 0; i < MAXTEAMS * MAXT * PER; i++) c += owner[i] == t;
    per_team_ok = per_team_ok && c == nthreads[t] * PER;
  }
  int tickets_ok = global_ticket == total * PER;
  for (int i = 0; i < MAXTEAMS * MAXT * PER; i++) tickets_ok = tickets_ok && (owner[i] >= 0) == (i < total * PER);
  printf("team atomics errors %d\n", e);
  printf("global tickets ok %d, per-team tickets ok %d\n", tickets_ok, per_team_ok);
  printf("long long ok %d, double ok %d\n", big == (long long)total << 33, dsum == 0.5 * total);
  return 0;
}
