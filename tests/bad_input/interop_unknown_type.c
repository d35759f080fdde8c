/* expect: 5:26: error: expected 'target' or 'targetsync' (after an optional 'prefer_type(...)') in 'init' clause */
#include <omp.h>
int main(void) {
  omp_interop_t obj = omp_interop_none;
#pragma omp interop init(targetsink: obj)
  return obj != omp_interop_none;
}
