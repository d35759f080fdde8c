/* expect: 3:7: error: size of array is too large */
/* gcc: size of array exceeds maximum object size (ptrdiff_t) */
int a[9223372036854775807] = {0, 0};
int main(void) { return a[0]; }
