/* Barriers with data exchange inside a parallel region of target teams: thread i
   writes slot i of a team-shared array, barrier, reads slot (i+1)%n, barrier, over
   several phases; a phase count chosen by the team master; a barrier inside a loop
   whose trip count every thread computes alike; a barrier inside an if every thread
   takes the same way; and a two-array ping-pong without a second barrier. */
#include <stdio.h>
#include <omp.h>

#define MAXTEAMS 3
#define MAXT 64

int main(void) {
  int bad[MAXTEAMS] = {0};
  long sig[MAXTEAMS] = {0};
  int nteams = 0;

  #pragma omp target teams num_teams(MAXTEAMS) thread_limit(MAXT) map(tofrom: bad, sig, nteams)
  {
    int t = omp_get_team_num();
    if (t == 0) nteams = omp_get_num_teams();
    int slots[MAXT], ping[MAXT], pong[MAXT];
    int phases = 4 + t;                       /* chosen by the team master */
    int errors = 0;
    long signature = 0;

    #pragma omp parallel
    {
      int id = omp_get_thread_num(), n = omp_get_num_threads();
      int mine = 0;
      if (n <= MAXT) {
        /* ring: write own slot, read the right neighbour's */
        for (int p = 1; p <= phases; p++) {
          slots[id] = id * 1000 + p * 10 + t;
          #pragma omp barrier
          int r = (id + 1) % n;
          if (slots[r] != r * 1000 + p * 10 + t) mine++;
          #pragma omp barrier
        }
        /* rotate a value all the way round the ring: n steps bring it back */
        int v = id * 7 + 1;
        for (int s = 0; s < n; s++) {
          slots[id] = v;
          #pragma omp barrier
          v = slots[(id + n - 1) % n];
          #pragma omp barrier
        }
        if (v != id * 7 + 1) mine++;
        /* ping-pong: alternate arrays, one barrier per step */
        ping[id] = id;
        #pragma omp barrier
        for (int s = 0; s < 6; s++) {
          int *src = (s % 2 == 0) ? ping : pong, *dst = (s % 2 == 0) ? pong : ping;
          dst[id] = src[(id + 1) % n] + 1;
          #pragma omp barrier
        }
        /* after 6 steps: ping[id] = (id + 6) % n + 6 */
        if (ping[id] != (id + 6) % n + 6) mine++;
        /* a barrier inside a branch every thread takes alike */
        if (phases > 3) {
          slots[id] = -id;
          #pragma omp barrier
          if (slots[n - 1 - id] != -(n - 1 - id)) mine++;
        }
      } else {
        mine = 0;                             /* more threads than slots: not checked */
      }
      #pragma omp atomic
      errors += mine;
      #pragma omp atomic
      signature += (long)mine + 1;
    }
    bad[t] = errors;
    sig[t] = signature;                       /* = number of threads when no errors */
  }
  int errors = 0, sig_ok = 1;
  for (int t = 0; t < nteams; t++) {
    errors += bad[t];
    sig_ok = sig_ok && sig[t] >= 1 && sig[t] <= MAXT;
  }
  printf("teams in range %d\n", nteams >= 1 && nteams <= MAXTEAMS);
  printf("barrier exchange errors %d, thread counts sane %d\n", errors, sig_ok);
  return 0;
}
