/* expect: 5:40: error: a doacross loop nest ('ordered(n)' with 'ordered depend') of collapsed loops ('collapse') is not supported */
int main(void) {
  static double u[32][32];
  int sum = 0;
  #pragma omp parallel for collapse(2) ordered(2)
  for (int i = 1; i < 32; i++)
    for (int j = 1; j < 32; j++) {
      #pragma omp ordered depend(sink: i - 1, j)
      u[i][j] = u[i - 1][j] + 1;
      #pragma omp ordered depend(source)
    }
  sum += (int)u[31][31];
  return sum;
}
