/* expect: 4:22: error: invalid use of void expression */
#include <stdio.h>
int main(void) {
  printf("%d\n", (void)0);
  return 0;
}
