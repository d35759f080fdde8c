/* expect: 4:9: error: lvalue required: a function cannot be assigned or incremented */
#include <stdio.h>
int main(void) {
  printf++;
  return 0;
}
