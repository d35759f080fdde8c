/* expect: 5:13: error: '#pragma omp scan' must be directly in the body of a loop with a 'reduction(inscan, ...)' clause */
int main(void) {
  int x = 0, b[8];
  for (int i = 0; i < 8; i++) {
    #pragma omp scan inclusive(x)
    b[i] = x;
  }
  return b[0];
}
