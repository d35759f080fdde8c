/* A team-shared array too big for shared memory (80 KB): filled by the team master,
   read by all threads of the parallel region (on the GPU it lives on the global-memory
   team stack); also a small shared array next to it. */
#include <stdio.h>
#include <omp.h>
#define WORDS 20000
int main(void) {
  long total = 0;
  int teams = 0;
  #pragma omp target teams num_teams(3) thread_limit(128) map(tofrom: total, teams)
  {
    int big[WORDS];
    short small[32];
    int team = omp_get_team_num();
    for (int i = 0; i < WORDS; i++) big[i] = i + team;
    for (int i = 0; i < 32; i++) small[i] = (short)i;
    #pragma omp parallel
    {
      long s = 0;
      for (int i = omp_get_thread_num(); i < WORDS; i += omp_get_num_threads()) s += big[i] - team;
      if (omp_get_thread_num() < 32) s += small[omp_get_thread_num()] * 0;
      #pragma omp atomic
      total += s;
    }
    if (team == 0) teams = omp_get_num_teams();
  }
  printf("per team %ld\n", total / teams);
  return 0;
}
