/* expect: 4:38: error: unknown reduction modifier 'insacn' */
int main(void) {
  int x = 0;
  #pragma omp parallel for reduction(insacn, +: x)
  for (int i = 0; i < 8; i++) x += i;
  return x;
}
