/* expect: 3:23: error: imaginary integer constant '2i' (a GNU extension) is not supported */
int main(void) {
  double _Complex z = 2i;
  return z == 0;
}
