/* expect: 7:35: error: '#pragma omp scan' takes one 'inclusive' or 'exclusive' clause */
int main(void) {
  int x = 0, a[8] = {0}, b[8];
  #pragma omp parallel for reduction(inscan, +: x)
  for (int i = 0; i < 8; i++) {
    x += a[i];
    #pragma omp scan inclusive(x) exclusive(x)
    b[i] = x;
  }
  return b[7];
}
