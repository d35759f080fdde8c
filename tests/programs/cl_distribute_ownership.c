/* distribute inside target teams, checked against OpenMP 4.5's dist_schedule rules:
   dist_schedule(static, c) gives chunk k to team k % nteams; dist_schedule(static) gives
   each team at most one contiguous block; each distributed iteration runs sequential
   code on the team master and then an inner parallel for reduction over its row.
   Also a team-master loop between two distribute constructs of one teams region. */
#include <stdio.h>
#include <omp.h>

#define MAXTEAMS 4
#define ROWS 37
#define M 96

int main(void) {
  int team_of[ROWS], team_of2[ROWS];
  long row_sum[ROWS], row_sum2[ROWS];
  int nteams = 0, c = 3;

  #pragma omp target teams num_teams(MAXTEAMS) thread_limit(64) \
      map(tofrom: team_of, team_of2, row_sum, row_sum2, nteams) map(to: c)
  {
    if (omp_get_team_num() == 0) nteams = omp_get_num_teams();
    #pragma omp distribute dist_schedule(static, c)
    for (int r = 0; r < ROWS; r++) {
      team_of[r] = omp_get_team_num();          /* team-master code of the iteration */
      int base = r * 10;
      long s = 0;
      #pragma omp parallel for reduction(+: s)
      for (int j = 0; j < M; j++)
        s += (base + j) % 11;
      row_sum[r] = s;
    }
    /* team-master code between the two distribute loops */
    int extra = ROWS % 8;                      /* 5 */
    #pragma omp distribute dist_schedule(static)
    for (int r = 0; r < ROWS; r++) {
      team_of2[r] = omp_get_team_num();
      long s = 0;
      #pragma omp parallel for reduction(+: s)
      for (int j = 0; j < M; j++)
        s += (r + j + extra) % 7;
      row_sum2[r] = s;
    }
  }
  int chunk_viol = 0, block_viol = 0, sums_ok = 1;
  int blocks[MAXTEAMS] = {0};
  for (int r = 0; r < ROWS; r++) {
    chunk_viol += team_of[r] != (r / c) % nteams;
    if (team_of2[r] < 0 || team_of2[r] >= nteams) block_viol++;
    else if (r == 0 || team_of2[r] != team_of2[r - 1]) blocks[team_of2[r]]++;
    long s = 0, s2 = 0;
    for (int j = 0; j < M; j++) { s += (r * 10 + j) % 11; s2 += (r + j + 5) % 7; }
    sums_ok = sums_ok && s == row_sum[r] && s2 == row_sum2[r];
  }
  for (int t = 0; t < MAXTEAMS; t++) block_viol += blocks[t] > 1;
  printf("teams in range %d\n", nteams >= 1 && nteams <= MAXTEAMS);
  printf("dist_schedule(static, %d) violations %d, dist_schedule(static) violations %d\n", c, chunk_viol, block_viol);
  printf("row sums ok %d, row_sum[36] %ld, row_sum2[36] %ld\n", sums_ok, row_sum[36], row_sum2[36]);
  return 0;
}
