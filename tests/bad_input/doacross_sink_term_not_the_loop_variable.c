/* expect: 8:40: error: term 1 of the 'depend(sink)' vector must be 'i', 'i + c' or 'i - c' (c a constant) */
/* gcc: 'j' is not the iteration variable of the nest's first loop */
int main(void) {
  static double u[32][32];
  #pragma omp parallel for ordered(2)
  for (int i = 1; i < 32; i++)
    for (int j = 1; j < 32; j++) {
      #pragma omp ordered depend(sink: j - 1, i)
      u[i][j] = u[i - 1][j] + 1;
      #pragma omp ordered depend(source)
    }
  return (int)u[31][31];
}
