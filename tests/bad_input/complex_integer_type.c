/* expect: 3:3: error: complex integer types (a GNU extension) are not supported */
int main(void) {
  int _Complex gaussian = 0;
  return 0;
}
