/* <tgmath.h> with complex arguments: sqrt, exp, pow and fabs of a complex call
 * csqrt, cexp, cpow and cabs (float ones the f versions), and creal/conj are
 * type-generic (C11 7.25p4-5); real arguments still call the real functions. */
#include <tgmath.h>
#include <stdio.h>
int main(void) {
  volatile double one = 1.0;
  double complex z = one * 0.5 + 0.25 * I;
  float complex f = (float)one * 0.5f - 1.0f * I;
  double complex s = sqrt(z), e = exp(z), p = pow(z, 2.0);
  float complex sf = sqrt(f);
  double a = fabs(z), r = sqrt(2.0 * one);
  float af = fabs(f);
  printf("%.17g %.17g %.17g %.17g %.17g %.17g\n", creal(s), cimag(s), creal(e), cimag(e), creal(p), cimag(p));
  printf("%.9g %.9g %.17g %.17g %.9g %zu %zu %.17g\n", crealf(sf), cimagf(sf), a, r, af, sizeof(creal(f)), sizeof(conj(f)), creal(2.0 * one));
  return 0;
}
