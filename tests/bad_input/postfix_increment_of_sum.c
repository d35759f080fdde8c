/* expect: 4:12: error: expression is not assignable (not an lvalue) */
int main(void) {
    int a = 1, b = 2;
    (a + b)++;
    return a;
}
