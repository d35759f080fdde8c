/* Team code around parallel regions, the shapes a GPU compiler SPMDizes: each team's
   master works out its slices (a loop over them, however many teams there are) and the
   scale, the team fills and sums each slice (parallel for with a reduction), the master
   folds the sum in, a smaller team (num_threads) exchanges values through a team-shared
   array at barriers inside a loop, and a region whose `if` leaves one thread still meets
   at its barriers. Time steps on the host launch the region again, on a struct of arrays. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define TEAMS 4
#define SLICE 1000
#define RING 48

struct field {
  double *value;
  double *weight;
  long n;
};

static int team_threads(int asked) { return asked < 1 ? 1 : asked; }

int main(int argc, char **argv) {
  struct field f;
  f.n = (long)TEAMS * SLICE;
  f.value = malloc(f.n * sizeof(double));
  f.weight = malloc(f.n * sizeof(double));
  for (long i = 0; i < f.n; i++) {
    f.value[i] = (double)(i % 17);
    f.weight[i] = 1.0 + (double)(i % 5) / 4.0;
  }
  double slice_sum[TEAMS] = {0};
  int ring_errors[TEAMS] = {0};
  int lone_errors[TEAMS] = {0};
  long ticket[TEAMS] = {0};
  int ring = team_threads(argc > 5 ? atoi(argv[5]) : RING);
  double *value = f.value, *weight = f.weight;
  long n = f.n;

  for (int step = 0; step < 3; step++) {
    #pragma omp target teams num_teams(TEAMS) thread_limit(96) \
        map(tofrom: value[0:n], slice_sum, ring_errors, lone_errors, ticket) map(to: weight[0:n])
    {
      int t = omp_get_team_num(), teams = omp_get_num_teams();
      double scale = 0.5 * (step + 1);
      int slots[RING];
      ticket[t] += 1;                          /* the team master alone */

      for (int slice = t; slice < TEAMS; slice += teams) {
        long first = (long)slice * SLICE, last = first + SLICE;
        double sum = 0.0;
        #pragma omp parallel for reduction(+: sum)
        for (long i = first; i < last; i++) {
          value[i] = value[i] * scale + weight[i];
          sum += value[i];
        }
        slice_sum[slice] += sum;               /* after the region: the whole sum */
      }
      int errors = 0;

      #pragma omp parallel num_threads(ring) reduction(+: errors)
      {
        int id = omp_get_thread_num(), k = omp_get_num_threads();
        if (k <= RING) {
          int v = id * 3 + t;
          for (int s = 0; s < k; s++) {
            slots[id] = v;
            #pragma omp barrier
            v = slots[(id + 1) % k];
            #pragma omp barrier
          }
          if (v != id * 3 + t) errors++;
        }
        #pragma omp single
        ticket[t] += 10;
        #pragma omp for nowait
        for (int i = 0; i < RING; i++) slots[i] = -1;
      }
      ring_errors[t] += errors;
      int lone = 0;

      #pragma omp parallel if (scale < 0.0) reduction(+: lone)
      {
        if (omp_get_num_threads() != 1) lone++;
        #pragma omp barrier
        #pragma omp for
        for (int i = 0; i < 8; i++) lone += (i == 7 && omp_get_thread_num() != 0);
        #pragma omp barrier
      }
      lone_errors[t] += lone;
    }
  }

  double checksum = 0.0;
  for (long i = 0; i < n; i++) checksum += value[i] * (double)(i % 7 + 1);
  int errors = 0, tickets_ok = ticket[0] == 33;
  for (int t = 0; t < TEAMS; t++) {
    printf("slice %d: sum %.3f\n", t, slice_sum[t]);
    errors += ring_errors[t] + lone_errors[t];
    tickets_ok = tickets_ok && (ticket[t] == 0 || ticket[t] == 33);
  }
  printf("errors %d, tickets %s\n", errors, tickets_ok ? "ok" : "wrong");
  printf("checksum %.3f\n", checksum);
  free(f.value);
  free(f.weight);
  return 0;
}
