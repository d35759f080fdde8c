/* Data-sharing clauses on parallel regions and loops inside target teams, applied to
   team-shared variables of the sequential part: private (the shared copy untouched),
   firstprivate (each thread starts from the master's value), lastprivate on omp for
   (the sequentially last iteration's value lands in the team-shared variable),
   default(none) with explicit shared, a block-scope variable in the master's code
   that shadows an outer one, and a thread-private variable declared inside the
   parallel region with the same name as a team-shared one; firstprivate and lastprivate
   together on a combined parallel for. */
#include <stdio.h>
#include <omp.h>

#define MAXTEAMS 3
#define N 100

int main(void) {
  int bad[MAXTEAMS] = {0};
  long vals[MAXTEAMS][4];
  int nteams = 0;

  #pragma omp target teams num_teams(MAXTEAMS) thread_limit(32) map(tofrom: bad, vals, nteams)
  {
    int t = omp_get_team_num();
    if (t == 0) nteams = omp_get_num_teams();
    int x = 10 + t, y = 20 + t, last = -1, errors = 0;
    double w = 0.5;
    long acc = 0;

    #pragma omp parallel private(x) firstprivate(y, w)
    {
      x = omp_get_thread_num();              /* private: the team's x stays 10 + t */
      if (y != 20 + t || w != 0.5) {
        #pragma omp atomic
        errors += 1;
      }
      y += x;                                /* each thread its own copy */
      w *= 2.0;
      if (y != 20 + t + x || w != 1.0) {
        #pragma omp atomic
        errors += 1;
      }
    }
    errors += (x != 10 + t) * 100 + (y != 20 + t) * 1000 + (w != 0.5) * 10000;

    #pragma omp parallel
    {
      #pragma omp for lastprivate(last) schedule(dynamic, 3)
      for (int i = 0; i < N; i++)
        last = i * 2 + t;
      /* after the loop's barrier every thread sees the last iteration's value */
      if (last != (N - 1) * 2 + t) {
        #pragma omp atomic
        errors += 1;
      }
    }

    #pragma omp parallel default(none) shared(acc, errors, t)
    {
      int x = 1000;                          /* shadows the team-shared x */
      #pragma omp atomic
      acc += x + t;
    }
    {
      int acc = -5;                          /* shadows in the master's code only */
      errors += acc != -5;
    }
    int n_ok = acc % (1000 + t) == 0 && acc > 0;

    #pragma omp parallel for firstprivate(x) lastprivate(x)
    for (int i = 0; i < N; i++)
      x = x + i;       /* the thread of the last iteration copies out its sum from 10 + t */

    vals[t][0] = last;
    vals[t][1] = n_ok;
    vals[t][2] = x >= 10 + t + (N - 1);
    vals[t][3] = y;
    bad[t] = errors;
  }
  int b = 0, ok = nteams >= 1 && nteams <= MAXTEAMS;
  for (int t = 0; t < nteams; t++) {
    b += bad[t];
    ok = ok && vals[t][0] == (N - 1) * 2 + t && vals[t][1] && vals[t][2] && vals[t][3] == 20 + t;
  }
  printf("data-sharing errors %d, values ok %d\n", b, ok);
  return 0;
}
