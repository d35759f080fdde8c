/* Blocked work the way solver codes write it: `target teams distribute` over blocks, each
   block's team master reading its bounds and deciding, the team running the block's
   parallel loops; a block with no rows skipped by an `if`; a relaxation sweep repeated
   while the master's residual is too large (a while loop around a parallel for); a
   `distribute parallel for` between team code in a split `target` / `teams`; loop
   variables in private(), a VLA-free struct of arrays and getopt for the sizes. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <math.h>
#include <omp.h>

#define BLOCKS 12

struct blocks {
  int first[BLOCKS + 1];     /* block b: rows first[b] .. first[b+1]-1 */
  double scale[BLOCKS];
};

int main(int argc, char **argv) {
  int rows = 3000, sweeps_max = 40, opt;
  while ((opt = getopt(argc, argv, "n:s:")) != -1) {
    if (opt == 'n') rows = atoi(optarg);
    else if (opt == 's') sweeps_max = atoi(optarg);
  }
  struct blocks layout;
  for (int b = 0; b <= BLOCKS; b++) {
    int at = (int)((long)rows * b / BLOCKS);
    if (b == 5) at = layout.first[4];          /* block 4 is empty */
    layout.first[b] = at;
  }
  for (int b = 0; b < BLOCKS; b++) layout.scale[b] = 1.0 + 0.125 * (b % 4);
  double *x = malloc(rows * sizeof(double)), *y = malloc(rows * sizeof(double));
  for (int i = 0; i < rows; i++) { x[i] = (double)(i % 23) - 11.0; y[i] = 0.0; }
  double block_norm[BLOCKS];
  int sweeps[BLOCKS];
  int b, i;

  #pragma omp target teams distribute num_teams(6) thread_limit(128) private(i) \
      map(to: layout) map(tofrom: x[0:rows], y[0:rows], block_norm, sweeps)
  for (b = 0; b < BLOCKS; b++) {
    int lo = layout.first[b], hi = layout.first[b + 1];
    double s = layout.scale[b], norm = 0.0;
    sweeps[b] = 0;
    if (hi > lo) {
      #pragma omp parallel for reduction(+: norm)
      for (i = lo; i < hi; i++) {
        y[i] = s * x[i];
        norm += y[i] * y[i];
      }
      double residual = sqrt(norm);
      while (residual > 1.0 && sweeps[b] < sweeps_max) {
        double next = 0.0;
        #pragma omp parallel for reduction(+: next) num_threads(96)
        for (i = lo; i < hi; i++) {
          y[i] *= 0.5;
          next += y[i] * y[i];
        }
        residual = sqrt(next);
        sweeps[b]++;
      }
      norm = residual;
    }
    block_norm[b] = norm;
  }

  double total = 0.0;
  #pragma omp target map(tofrom: x[0:rows], total) map(to: y[0:rows])
  #pragma omp teams num_teams(3) reduction(+: total)
  {
    double shift = 0.25 * (omp_get_team_num() >= 0);   /* a call: the team master makes it */
    #pragma omp distribute parallel for reduction(+: total)
    for (int k = 0; k < rows; k++) {
      x[k] = y[k] + shift;
      total += x[k];
    }
  }

  for (b = 0; b < BLOCKS; b++) printf("block %2d: sweeps %2d norm %.6f\n", b, sweeps[b], block_norm[b]);
  printf("total %.6f\n", total);
  free(x);
  free(y);
  return 0;
}
