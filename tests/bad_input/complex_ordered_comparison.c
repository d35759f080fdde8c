/* expect: 5:10: error: invalid operands to binary '<' ('complex double' and 'double') */
#include <complex.h>
int main(void) {
  double complex z = 1.0 + 2.0 * I;
  return z < 3.0;
}
