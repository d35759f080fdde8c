/* expect: 5:3: error: too few arguments to function '__builtin_va_end' */
/* gcc says the same of va_end() (the macro's empty argument) */
#include <stdarg.h>
int main(void) {
  va_end();
  return 0;
}
