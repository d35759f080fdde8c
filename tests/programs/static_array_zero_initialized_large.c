/* A large static array initialised with `= {0}` (common in benchmark codes for
   histograms and grids): one zeroinitializer, not sixteen million constants. */
#include <stdio.h>

#define CELLS (1 << 24)

static float grid[CELLS] = {0};
int histogram[CELLS / 4] = {0, 0, 0};
static double weights[8] = {0.0, -0.0, 0.0};

int main(void) {
  for (int i = 0; i < CELLS; i += 4099)
    grid[i] = (float)(i % 7);
  double total = 0.0;
  #pragma omp target teams distribute parallel for map(to: grid[0:CELLS]) map(tofrom: histogram[0:16]) reduction(+: total)
  for (int i = 0; i < CELLS; i++) {
    total += grid[i];
    if (grid[i] > 0.0f) {
      #pragma omp atomic
      histogram[(int)grid[i]]++;
    }
  }
  printf("total %.1f\n", total);
  for (int b = 0; b < 7; b++)
    printf("bin %d: %d\n", b, histogram[b]);
  printf("signed zero kept: %s\n", 1.0 / weights[1] < 0 ? "yes" : "no");
  return 0;
}
