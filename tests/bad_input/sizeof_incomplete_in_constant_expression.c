/* expect: 4:13: error: invalid application of 'sizeof' to an incomplete type */
struct opaque;

char buffer[sizeof(struct opaque)];

int main(void) {
    return 0;
}
