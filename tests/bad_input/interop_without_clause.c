/* expect: 4:13: error: '#pragma omp interop' needs at least one 'init' or 'use' or 'destroy' clause */
#include <omp.h>
int main(void) {
#pragma omp interop
  return 0;
}
