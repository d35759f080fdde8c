/* expect: 6:3: error: the iteration variable 'x' of an OpenMP loop must have integer or pointer type */
#include <stdio.h>
int main(void) {
  double sum = 0.0;
  #pragma omp target teams distribute parallel for reduction(+: sum)
  for (double x = 0.0; x < 1.0; x += 0.125)
    sum += x;
  printf("%f\n", sum);
  return 0;
}
