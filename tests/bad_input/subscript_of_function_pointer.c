/* expect: 5:16: error: subscripted value is a pointer to function */
static int zero(void) { return 0; }
int main(void) {
    int (*pick)(void) = zero;
    return pick[1]();
}
