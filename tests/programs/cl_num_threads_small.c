/* num_threads below the block size inside target teams thread_limit(64): every thread
   of `parallel num_threads(k)` sees the same n = omp_get_num_threads() with 1 <= n <= k,
   the thread numbers are exactly 0..n-1 (count n, sum n(n-1)/2, each seen once), and
   worksharing over the smaller team still covers every iteration once.  k = 1, 3, 5,
   31, 33 and 64, a parallel with no clause (n <= 64), and parallel for num_threads(3). */
#include <stdio.h>
#include <omp.h>

#define MAXTEAMS 2
#define LIMIT 64
#define NK 6

int main(void) {
  static const int ks[NK] = { 1, 3, 5, 31, 33, 64 };
  int bad[MAXTEAMS][NK + 2];
  int hits[MAXTEAMS][100];
  int nteams = 0;
  for (int t = 0; t < MAXTEAMS; t++) {
    for (int j = 0; j < NK + 2; j++) bad[t][j] = 0;
    for (int j = 0; j < 100; j++) hits[t][j] = 0;
  }

  #pragma omp target teams num_teams(MAXTEAMS) thread_limit(LIMIT) map(to: ks) map(tofrom: bad, hits, nteams)
  {
    int t = omp_get_team_num();
    if (t == 0) nteams = omp_get_num_teams();
    for (int j = 0; j < NK; j++) {
      int k = ks[j];
      int seen[LIMIT];
      int count = 0, idsum = 0, nfirst = -1, disagree = 0, iters = 0;
      for (int i = 0; i < LIMIT; i++) seen[i] = 0;
      #pragma omp parallel num_threads(k)
      {
        int id = omp_get_thread_num(), n = omp_get_num_threads();
        #pragma omp master
        nfirst = n;
        #pragma omp barrier
        if (n != nfirst || id < 0 || id >= n || id >= LIMIT) {
          #pragma omp atomic
          disagree += 1;
        } else {
          #pragma omp atomic
          seen[id] += 1;
        }
        #pragma omp atomic
        count += 1;
        #pragma omp atomic
        idsum += id;
        #pragma omp for
        for (int i = 0; i < 100; i++) {
          #pragma omp atomic
          iters += 1;
        }
      }
      int b = disagree != 0 || nfirst < 1 || nfirst > k || count != nfirst || idsum != nfirst * (nfirst - 1) / 2
              || iters != 100;
      for (int i = 0; i < LIMIT; i++)
        b = b || seen[i] != (i < nfirst);
      bad[t][j] = b;
    }

    /* no clause: the team's threads, at most thread_limit */
    int n0 = 0, c0 = 0;
    #pragma omp parallel
    {
      #pragma omp single
      n0 = omp_get_num_threads();
      #pragma omp atomic
      c0 += 1;
    }
    bad[t][NK] = n0 < 1 || n0 > LIMIT || c0 != n0;

    /* parallel for num_threads(3): every iteration once, on thread numbers below 3 */
    int over = 0;
    #pragma omp parallel for num_threads(3)
    for (int i = 0; i < 100; i++) {
      hits[t][i] += 1;
      if (omp_get_thread_num() >= 3 || omp_get_num_threads() > 3) {
        #pragma omp atomic
        over += 1;
      }
    }
    bad[t][NK + 1] = over;
  }
  int ok = nteams >= 1 && nteams <= MAXTEAMS, h = 0;
  for (int j = 0; j < NK + 2; j++) {
    int b = 0;
    for (int t = 0; t < nteams; t++) b += bad[t][j];
    if (j < NK) printf("num_threads(%d): bad %d\n", ks[j], b);
    else printf("%s: bad %d\n", j == NK ? "no clause" : "parallel for num_threads(3)", b);
  }
  for (int t = 0; t < nteams; t++)
    for (int i = 0; i < 100; i++) h += hits[t][i] == 1;
  printf("teams ok %d, iterations once %d\n", ok, h == 100 * nteams);
  return 0;
}
