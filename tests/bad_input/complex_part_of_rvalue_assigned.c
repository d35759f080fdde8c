/* expect: 5:3: error: expression is not assignable */
#include <complex.h>
int main(void) {
  double complex z = 1.0;
  __real__ (z + 1.0) = 2.0;
  return creal(z) > 0.0;
}
