/* omp for schedules inside a parallel region of target teams, checked against what
   OpenMP 4.5 guarantees about which thread runs which iteration: static,k gives chunk
   c to thread c % n; static (no chunk) gives each thread at most one contiguous block; dynamic,k and guided,k keep each chunk of k (dynamic) on one thread;
   dynamic, guided and every schedule run each iteration exactly once; the loop bounds
   and chunk come from team-shared variables the team master set.  Non-unit and negative
   strides too.  Only counts of violations are printed. */
#include <stdio.h>
#include <omp.h>

#define MAXTEAMS 2
#define N 500

int main(void) {
  int viol[MAXTEAMS][8];
  int nteams = 0;
  for (int t = 0; t < MAXTEAMS; t++)
    for (int j = 0; j < 8; j++) viol[t][j] = 0;

  #pragma omp target teams num_teams(MAXTEAMS) thread_limit(64) map(tofrom: viol, nteams)
  {
    int t = omp_get_team_num();
    if (t == 0) nteams = omp_get_num_teams();
    int owner[N], hits[N];
    int k = 3 + t, lo = 5, hi = N - 7, nthreads = 0;
    int v[8];
    for (int j = 0; j < 8; j++) v[j] = 0;

    #pragma omp parallel
    {
      int id = omp_get_thread_num();
      #pragma omp single
      nthreads = omp_get_num_threads();

      /* static,k: chunk c on thread c % n */
      #pragma omp for schedule(static, k)
      for (int i = 0; i < N; i++) owner[i] = id;
      #pragma omp single
      for (int i = 0; i < N; i++) v[0] += owner[i] != (i / k) % nthreads;

      /* static: at most one chunk (a contiguous block) per thread */
      #pragma omp for schedule(static)
      for (int i = 0; i < N; i++) owner[i] = id;
      #pragma omp single
      {
        int blocks[64];
        for (int j = 0; j < 64; j++) blocks[j] = 0;
        for (int i = 0; i < N; i++)
          if (owner[i] < 0 || owner[i] >= nthreads || owner[i] >= 64) v[1]++;
          else if (i == 0 || owner[i] != owner[i - 1]) blocks[owner[i]]++;
        for (int j = 0; j < 64; j++) v[1] += blocks[j] > 1;
      }

      /* dynamic,k: every chunk of k on one thread; each iteration once */
      #pragma omp for schedule(dynamic, k)
      for (int i = 0; i < N; i++) { owner[i] = id; hits[i] = 1; }
      #pragma omp single
      for (int i = 0; i < N; i++) v[2] += owner[i] != owner[i - i % k] || hits[i] != 1;

      /* dynamic (chunk 1) and guided: each iteration exactly once */
      #pragma omp for schedule(dynamic)
      for (int i = 0; i < N; i++) hits[i] = 2;
      #pragma omp for schedule(guided)
      for (int i = 0; i < N; i++) hits[i] += 10;
      #pragma omp for schedule(guided, k)
      for (int i = 0; i < N; i++) {
        #pragma omp atomic
        hits[i] += 100;
      }
      #pragma omp single
      for (int i = 0; i < N; i++) v[3] += hits[i] != 112;

      /* bounds from the master, stride 3, static,k over the logical iterations */
      #pragma omp for schedule(static, k)
      for (int i = lo; i < hi; i += 3) owner[i] = id;
      #pragma omp single
      for (int i = lo; i < hi; i += 3) v[4] += owner[i] != ((i - lo) / 3 / k) % nthreads;

      /* negative stride, dynamic, the <= form */
      #pragma omp for schedule(dynamic, 2)
      for (int i = N - 1; i >= 0; i -= 2) {
        #pragma omp atomic
        hits[i] += 1000;
      }
      /* unsigned bounds and a long loop variable with static,1 */
      #pragma omp for schedule(static, 1)
      for (long i = 0; i <= N - 1; i++) {
        #pragma omp atomic
        hits[i] += 10000;
      }
      #pragma omp single
      for (int i = 0; i < N; i++) v[5] += hits[i] != 10112 + ((N - 1 - i) % 2 == 0) * 1000;
    }
    for (int j = 0; j < 8; j++) viol[t][j] = v[j];
  }
  static const char *names[6] = { "static,k", "static", "dynamic,k", "dynamic/guided", "strided static,k",
                                   "negative stride/static,1" };
  for (int j = 0; j < 6; j++) {
    int s = 0;
    for (int t = 0; t < nteams; t++) s += viol[t][j];
    printf("%s violations %d\n", names[j], s);
  }
  printf("teams in range %d\n", nteams >= 1 && nteams <= MAXTEAMS);
  return 0;
}
