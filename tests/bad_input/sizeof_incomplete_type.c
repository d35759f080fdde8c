/* expect: 5:17: error: invalid application of 'sizeof' to an incomplete type */
struct opaque;

int main(void) {
    return (int)sizeof(struct opaque);
}
