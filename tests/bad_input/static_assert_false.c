/* expect: 3:1: error: static assertion failed: "need 64-bit size_t" */
#include <stddef.h>
_Static_assert(sizeof(size_t) == 4, "need 64-bit size_t");
int main(void) { return 0; }
