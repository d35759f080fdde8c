/* expect: 4:9: error: array type is not assignable */
int main(void) {
  int counts[3] = {0, 0, 0};
  counts++;
  return counts[0];
}
