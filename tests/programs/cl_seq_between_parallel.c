/* Sequential code between parallel regions inside one target region: the team master
   computes values (a scale, a bound, a prefix sum) that the next parallel region
   consumes, and reads what the previous parallel region produced.  Part 1: target
   teams, each team handles rows with a loop of sequential and parallel steps.  Part 2:
   a counting sort inside one target region (parallel histogram, sequential prefix sum,
   parallel scatter, sequential check). */
#include <stdio.h>
#include <omp.h>

#define ROWS 6
#define M 300
#define N 2000
#define KEYS 16

int main(void) {
  static int data[ROWS][M];
  long row_sum[ROWS] = {0};
  int row_bound[ROWS] = {0};

  #pragma omp target teams num_teams(4) thread_limit(64) map(tofrom: data, row_sum, row_bound)
  {
    int t = omp_get_team_num(), nteams = omp_get_num_teams();
    for (int row = t; row < ROWS; row += nteams) {
      int scale = row + 2;                       /* sequential: the team master */
      #pragma omp parallel for
      for (int j = 0; j < M; j++)
        data[row][j] = scale * j;
      long s = 0;                                /* sequential: consumes the region's writes */
      for (int j = 0; j < M; j++)
        s += data[row][j] % 7;
      int bound = (int)(s % 50) + 100;
      #pragma omp parallel for
      for (int j = 0; j < M; j++)
        if (j < bound)
          data[row][j] += (int)s;
      long s2 = 0;
      for (int j = 0; j < M; j++)
        s2 += data[row][j];
      row_sum[row] = s2;
      row_bound[row] = bound;
    }
  }
  long total = 0;
  for (int r = 0; r < ROWS; r++) {
    long s = 0;
    for (int j = 0; j < M; j++) s += data[r][j];
    total += row_sum[r] * (r + 1);
    if (s != row_sum[r]) printf("row %d: sum mismatch\n", r);
  }
  printf("rows: total %ld bounds %d %d %d %d %d %d\n", total, row_bound[0], row_bound[1], row_bound[2],
         row_bound[3], row_bound[4], row_bound[5]);

  /* counting sort in one target region */
  static int in[N], out[N];
  int count[KEYS], start[KEYS];
  int sorted_ok = 0, stable_ok = 0;
  for (int i = 0; i < N; i++) in[i] = (i * 37 + 11) % 101 % KEYS;
  #pragma omp target map(to: in) map(from: out, count, start) map(tofrom: sorted_ok, stable_ok)
  {
    for (int k = 0; k < KEYS; k++) count[k] = 0;
    #pragma omp parallel for
    for (int i = 0; i < N; i++) {
      #pragma omp atomic
      count[in[i]] += 1;
    }
    int acc = 0;                                 /* sequential prefix sum */
    for (int k = 0; k < KEYS; k++) { start[k] = acc; acc += count[k]; }
    #pragma omp parallel for
    for (int k = 0; k < KEYS; k++) {             /* each key scattered by one thread, in order */
      int pos = start[k];
      for (int i = 0; i < N; i++)
        if (in[i] == k) out[pos++] = i;
    }
    int ok = 1, stable = 1;                      /* sequential check */
    for (int i = 1; i < N; i++) {
      if (in[out[i - 1]] > in[out[i]]) ok = 0;
      if (in[out[i - 1]] == in[out[i]] && out[i - 1] > out[i]) stable = 0;
    }
    sorted_ok = ok && acc == N;
    stable_ok = stable;
  }
  long chk = 0;
  for (int i = 0; i < N; i++) chk += (long)out[i] * (i % 13);
  printf("sort: sorted %d stable %d count[3] %d start[15] %d checksum %ld\n", sorted_ok, stable_ok, count[3],
         start[15], chk);
  return 0;
}
