/* expect: 5:9: error: lvalue required: a function cannot be assigned or incremented */
#include <stdlib.h>
static int twice(int x) { return 2 * x; }
int main(void) {
  twice = 0;
  return 0;
}
