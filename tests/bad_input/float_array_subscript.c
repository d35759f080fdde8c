/* expect: 2:58: error: array subscript is not an integer */
int main(void) { int a[3] = {0}; double d = 1.0; return a[d]; }
