/* expect: 5:10: error: invalid operands to binary '&' ('complex float' and 'int') */
#include <complex.h>
int main(void) {
  float complex z = 1.0f;
  return z & 1;
}
