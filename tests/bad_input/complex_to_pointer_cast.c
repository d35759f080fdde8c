/* expect: 5:11: error: cannot convert from 'complex double' to 'char *' */
#include <complex.h>
int main(void) {
  double complex z = 1.0;
  return *(char *)z;
}
