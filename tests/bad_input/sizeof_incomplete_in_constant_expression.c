/* expect: 5:13: error: invalid application of 'sizeof' to an incomplete type */
/* xfail: sizeof of an incomplete type in a constant expression gives 0 (sema/constant_eval.py) */
struct opaque;

char buffer[sizeof(struct opaque)];

int main(void) {
    return 0;
}
