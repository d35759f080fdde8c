/* expect: 9:27: error: the 'depend(sink)' vector has 1 term(s); the loop nest's 'ordered(2)' needs 2 */
/* gcc: number of variables in 'depend' clause with 'sink' modifier does not match number of iteration variables */
int main(void) {
  static double u[32][32];
  int i, j;
  #pragma omp parallel for ordered(2) private(j)
  for (i = 1; i < 32; i++)
    for (j = 1; j < 32; j++) {
      #pragma omp ordered depend(sink: i - 1)
      u[i][j] = u[i - 1][j] + 1;
      #pragma omp ordered depend(source)
    }
  return (int)u[31][31];
}
