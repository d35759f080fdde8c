/* expect: 4:13: error: expression is not assignable (not an lvalue) */
static int value(void) { return 1; }
int main(void) {
    value() = 3;
    return 0;
}
