/* expect: 4:29: error: bit-field '<anonymous>' width not an integer constant */
#include <string.h>

struct person { const char: *name; int age; };

int main(void)
{
    struct person p = { 0 };
    return p.age;
}
