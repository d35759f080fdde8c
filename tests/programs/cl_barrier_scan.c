/* Multi-phase barrier algorithms in team-shared arrays of a target teams region:
   a Hillis-Steele inclusive prefix sum (double-buffered, a barrier per step, log2(N)
   steps), an odd-even transposition sort (a barrier per phase), and a tree reduction
   in halving strides; the team master checks each result in sequential code before
   the next parallel region starts. */
#include <stdio.h>
#include <omp.h>

#define MAXTEAMS 3
#define N 256

int main(void) {
  int ok_scan[MAXTEAMS] = {0}, ok_sort[MAXTEAMS] = {0}, ok_tree[MAXTEAMS] = {0};
  long last[MAXTEAMS] = {0};
  int nteams = 0;

  #pragma omp target teams num_teams(MAXTEAMS) thread_limit(64) \
      map(tofrom: ok_scan, ok_sort, ok_tree, last, nteams)
  {
    int t = omp_get_team_num();
    if (t == 0) nteams = omp_get_num_teams();
    long buf[2][N];
    int keys[N];
    for (int i = 0; i < N; i++) buf[0][i] = (i * 13 + t) % 17;

    /* Hillis-Steele: after the step with stride d, buf[cur][i] sums (i-2d, i] */
    int final_buf = 0;
    #pragma omp parallel
    {
      int id = omp_get_thread_num(), n = omp_get_num_threads();
      int cur = 0;
      for (int d = 1; d < N; d *= 2) {
        for (int i = id; i < N; i += n)
          buf[1 - cur][i] = buf[cur][i] + (i >= d ? buf[cur][i - d] : 0);
        #pragma omp barrier
        cur = 1 - cur;
      }
      #pragma omp master
      final_buf = cur;
    }
    long run = 0;
    int ok = 1;
    for (int i = 0; i < N; i++) {
      run += (i * 13 + t) % 17;
      ok = ok && buf[final_buf][i] == run;
    }
    ok_scan[t] = ok;
    last[t] = buf[final_buf][N - 1];

    /* odd-even transposition sort: N phases, a barrier after each */
    for (int i = 0; i < N; i++) keys[i] = (i * 101 + 7 * t) % N;     /* a permutation of 0..N-1 */
    #pragma omp parallel
    {
      int id = omp_get_thread_num(), n = omp_get_num_threads();
      for (int phase = 0; phase < N; phase++) {
        for (int i = (phase % 2) + 2 * id; i + 1 < N; i += 2 * n) {
          if (keys[i] > keys[i + 1]) {
            int tmp = keys[i];
            keys[i] = keys[i + 1];
            keys[i + 1] = tmp;
          }
        }
        #pragma omp barrier
      }
    }
    ok = 1;
    for (int i = 0; i < N; i++) ok = ok && keys[i] == i;
    ok_sort[t] = ok;

    /* tree reduction in halving strides over the sorted keys */
    #pragma omp parallel
    {
      int id = omp_get_thread_num(), n = omp_get_num_threads();
      for (int half = N / 2; half >= 1; half /= 2) {
        for (int i = id; i < half; i += n)
          keys[i] += keys[i + half];
        #pragma omp barrier
      }
    }
    ok_tree[t] = keys[0] == N * (N - 1) / 2;
  }
  int s = 0, o = 0, r = 0;
  for (int t = 0; t < nteams; t++) {
    s += ok_scan[t];
    o += ok_sort[t];
    r += ok_tree[t];
  }
  printf("teams in range %d\n", nteams >= 1 && nteams <= MAXTEAMS);
  printf("scan ok %d, sort ok %d, tree ok %d, last[0] %ld\n", s == nteams, o == nteams, r == nteams, last[0]);
  return 0;
}
