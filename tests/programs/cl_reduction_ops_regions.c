/* Reductions in parallel regions inside target regions: every operator (+ * - & | ^
   && || max min) on team-shared variables the team master initialised, the reduced
   values used by the master in the next sequential step and by the next parallel
   region; reduction on an omp for inside a parallel region; a teams-level
   reduction(+) over team-master partials computed from inner parallel reductions; and
   the initial values taking part (reduction combines with the original). */
#include <stdio.h>
#include <omp.h>

#define N 200

int main(void) {
  long results[12] = {0};
  long teams_total = 0, teams_max_sum = 0;

  #pragma omp target map(tofrom: results)
  {
    long sum = 100, diff = 0;
    double prod = 1.0;
    int band = ~0, bor = 0, bxor = 0, land = 1, lor = 0, mx = -1000, mn = 1000;
    #pragma omp parallel for reduction(+: sum) reduction(-: diff) reduction(*: prod) \
        reduction(&: band) reduction(|: bor) reduction(^: bxor)
    for (int i = 0; i < N; i++) {
      sum += i;
      diff -= i;
      if (i % 50 == 0) prod *= 2.0;
      band &= ~(1 << (i % 20));
      bor |= 1 << (i % 24);
      bxor ^= i;
    }
    #pragma omp parallel for reduction(&&: land) reduction(||: lor) reduction(max: mx) reduction(min: mn)
    for (int i = 0; i < N; i++) {
      land = land && (i < N);
      lor = lor || (i == N / 2);
      mx = mx > (i * 7) % 131 ? mx : (i * 7) % 131;
      mn = mn < (i * 7) % 131 - 65 ? mn : (i * 7) % 131 - 65;
    }
    /* sequential: the master uses the reduced values */
    int scale = (int)(sum % 17) + 1;
    long second = 0;
    #pragma omp parallel
    {
      #pragma omp for reduction(+: second)
      for (int i = 0; i < N; i++)
        second += (long)i * scale + mx - mn;
      #pragma omp for reduction(max: mx)
      for (int i = 0; i < N; i++)
        mx = mx > i + scale ? mx : i + scale;
    }
    results[0] = sum; results[1] = diff; results[2] = (long)prod; results[3] = band;
    results[4] = bor; results[5] = bxor; results[6] = land; results[7] = lor;
    results[8] = mx; results[9] = mn; results[10] = scale; results[11] = second;
  }
  printf("sum %ld diff %ld prod %ld band %ld bor %ld bxor %ld\n", results[0], results[1], results[2], results[3],
         results[4], results[5]);
  printf("land %ld lor %ld max %ld min %ld scale %ld second %ld\n", results[6], results[7], results[8], results[9],
         results[10], results[11]);

  /* across teams: a distribute over blocks, an inner parallel reduction per block, the
     team master folding block results into the teams reduction */
  #pragma omp target teams num_teams(4) thread_limit(64) reduction(+: teams_total, teams_max_sum) \
      map(tofrom: teams_total, teams_max_sum)
  {
    #pragma omp distribute
    for (int blk = 0; blk < 16; blk++) {
      long part = 0;
      int bmax = 0;
      #pragma omp parallel for reduction(+: part) reduction(max: bmax)
      for (int i = 0; i < 64; i++) {
        int v = (blk * 64 + i) * 13 % 97;
        part += v;
        bmax = bmax > v ? bmax : v;
      }
      teams_total += part;
      teams_max_sum += bmax * (blk + 1);
    }
  }
  long want = 0, want_max = 0;
  for (int blk = 0; blk < 16; blk++) {
    int bmax = 0;
    for (int i = 0; i < 64; i++) {
      int v = (blk * 64 + i) * 13 % 97;
      want += v;
      bmax = bmax > v ? bmax : v;
    }
    want_max += bmax * (blk + 1);
  }
  printf("teams total %ld (ok %d), teams max sum %ld (ok %d)\n", teams_total, teams_total == want, teams_max_sum,
         teams_max_sum == want_max);
  return 0;
}
