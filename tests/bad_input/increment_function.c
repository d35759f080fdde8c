/* expect: 4:3: error: lvalue required: a function cannot be assigned or incremented */
#include <stdio.h>
int main(void) {
  printf++;
  return 0;
}
