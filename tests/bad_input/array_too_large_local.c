/* expect: 4:9: error: size of array is too large */
/* The initializer must not be expanded first: rejected at once. */
int main(void) {
  int a[9223372036854775807] = {0, 0};
  return a[0];
}
