/* expect: 6:39: error: reduction '*' over the complex variable 'product' is not supported */
#include <complex.h>
int main(void) {
  double complex product = 1.0;
  int i;
#pragma omp parallel for reduction(*: product)
  for (i = 0; i < 8; i++)
    product *= I;
  return creal(product) > 0.0;
}
