/* expect: 6:41: error: reduction 'max' over the complex variable 'largest' is not supported */
#include <complex.h>
int main(void) {
  float complex largest = 0.0f;
  int i;
#pragma omp parallel for reduction(max: largest)
  for (i = 0; i < 8; i++)
    largest = i;
  return crealf(largest) > 0.0f;
}
