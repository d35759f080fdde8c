/* expect: 4:40: error: 'ordered(1)' must not be smaller than 'collapse(2)' */
int main(void) {
  static double u[32][32];
  #pragma omp parallel for collapse(2) ordered(1)
  for (int i = 1; i < 32; i++)
    for (int j = 1; j < 32; j++)
      u[i][j] = i + j;
  return (int)u[31][31];
}
