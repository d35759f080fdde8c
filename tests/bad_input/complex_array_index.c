/* expect: 6:15: error: array subscript is not an integer */
#include <complex.h>
int main(void) {
  int table[4] = {0, 1, 2, 3};
  float complex k = 1.0f;
  return table[k];
}
