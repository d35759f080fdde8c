/* expect: 5:18: error: the 'packed' attribute is not supported */
#include <stdio.h>
struct header {
    char tag; int length;
} __attribute__((packed));
int main(void) {
    printf("%zu\n", sizeof(struct header));
    return 0;
}
