/* expect: 4:18: error: invalid use of void expression */
#include <stdio.h>
int main(void) {
  printf("%d\n", (void)0);
  return 0;
}
