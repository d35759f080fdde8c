/* expect: 9:41: error: attempt to take address of bit-field structure member 'length' */
#include <stddef.h>

struct header {
    unsigned version : 4, length : 12;
};

int main(void) {
    return (int)offsetof(struct header, length);
}
