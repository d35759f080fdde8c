/* expect: 4:24: error: the 'inscan' reduction modifier is not valid on '#pragma omp parallel' */
int main(void) {
  int x = 0;
  #pragma omp parallel reduction(inscan, +: x)
  x += 1;
  return x;
}
