/* Blocks whose size is not a multiple of the warp size (thread_limit 48, 70 and 1), so
   the last warp of each team is partial: distribute + parallel for with reductions,
   a barrier exchange, critical and single in the control loop, and a combined-construct
   reduction.  num_threads(33) leaves a warp with one active thread. */
#include <stdio.h>
#include <omp.h>

#define N 1000

static long check_team(int limit, int want_threads) {
  long total = 0, maxv = 0;
  int seen[4] = {0, 0, 0, 0};
  #pragma omp target teams num_teams(3) thread_limit(limit) map(tofrom: total, maxv, seen) \
      reduction(+: total) reduction(max: maxv)
  {
    int t = omp_get_team_num();
    #pragma omp distribute
    for (int blk = 0; blk < 12; blk++) {
      long part = 0;
      int hi = 0;
      #pragma omp parallel for reduction(+: part) reduction(max: hi)
      for (int i = 0; i < N; i++) {
        int v = (blk * N + i) * 7 % 101;
        part += v;
        hi = hi > v ? hi : v;
      }
      total += part;
      maxv = maxv > hi * (blk + 1) ? maxv : hi * (blk + 1);
    }
    int slots[128];
    int exchanged = 0, count = 0, singles = 0;
    #pragma omp parallel num_threads(want_threads)
    {
      int id = omp_get_thread_num(), n = omp_get_num_threads();
      slots[id] = id * 3 + t;
      #pragma omp barrier
      int other = slots[(id + 1) % n];          /* a neighbour's value, after the barrier */
      if (other == ((id + 1) % n) * 3 + t) {
        #pragma omp atomic
        exchanged += 1;
      }
      #pragma omp critical
      count += 1;
      #pragma omp single
      singles += 1;
    }
    if (t < 4)
      seen[t] = (exchanged == count) + 2 * (singles == 1);    /* each team its own slot */
  }
  int ok = 1;
  for (int t = 0; t < 4; t++) ok = ok && (seen[t] == 0 || seen[t] == 3);
  return ok ? total * 1000 + maxv % 1000 : -1;
}

int main(void) {
  long want = 0, want_max = 0;
  for (int blk = 0; blk < 12; blk++) {
    int hi = 0;
    for (int i = 0; i < N; i++) {
      int v = (blk * N + i) * 7 % 101;
      want += v;
      hi = hi > v ? hi : v;
    }
    want_max = want_max > hi * (blk + 1) ? want_max : hi * (blk + 1);
  }
  printf("want %ld\n", want * 1000 + want_max % 1000);
  printf("48 threads: %ld\n", check_team(48, 40));
  printf("70 threads: %ld\n", check_team(70, 33));
  printf("1 thread:   %ld\n", check_team(1, 1));

  /* the combined construct's block reduction with a partial last warp */
  double sum = 0.0;
  #pragma omp target teams distribute parallel for thread_limit(48) reduction(+: sum) map(tofrom: sum)
  for (int i = 0; i < 100000; i++)
    sum += (i % 10) * 0.5;
  printf("combined sum %.1f\n", sum);
  return 0;
}
