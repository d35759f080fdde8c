/* expect: 5:31: error: a loop with a 'reduction(inscan, ...)' clause needs one '#pragma omp scan' directly in its body */
int main(void) {
  int x = 0, a[8] = {0}, b[8];
  #pragma omp parallel for reduction(inscan, +: x)
  for (int i = 0; i < 8; i++) { x += a[i]; b[i] = x; }
  return b[7];
}
