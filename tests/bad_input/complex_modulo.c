/* expect: 5:10: error: invalid operands to binary '%' ('complex double' and 'int') */
#include <complex.h>
int main(void) {
  double complex z = 1.0 + 2.0 * I;
  return z % 2 != 0;
}
