/* expect: 3:10: error: no_such_header.h: No such file or directory */
#include <stdio.h>
#include "no_such_header.h"

int main(void) {
    return 0;
}
