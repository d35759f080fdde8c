/* expect: 3:3: error: invalid operands to binary '==' */
int main(void) {
  main == 0.0;
  return 0;
}
