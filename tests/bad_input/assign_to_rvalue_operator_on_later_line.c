/* expect: 6:9: error: expression is not assignable (not an lvalue) */
int main(void) {
    int x;
    x
      = 5 +
      1 = 2;
    return x;
}
