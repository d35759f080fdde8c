/* expect: 4:52: error: with an 'inscan' reduction clause every reduction clause on the construct must be 'inscan' */
int main(void) {
  int x = 0, y = 0, a[8] = {0}, b[8];
  #pragma omp parallel for reduction(inscan, +: x) reduction(+: y)
  for (int i = 0; i < 8; i++) {
    x += a[i];
    #pragma omp scan inclusive(x)
    b[i] = x; y += b[i];
  }
  return y;
}
