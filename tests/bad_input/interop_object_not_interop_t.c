/* expect: 5:38: error: 'stream' in an 'interop' clause is not an 'omp_interop_t' */
#include <omp.h>
int main(void) {
  int stream = 0;
#pragma omp interop init(targetsync: stream)
  return stream;
}
