/* expect: 7:13: error: 'ordered depend(...)' must be inside a loop with an 'ordered(n)' clause */
/* gcc: 'ordered' construct with 'depend' clause must be closely nested inside a loop with 'ordered' clause */
int main(void) {
  static double x[100];
  #pragma omp parallel for
  for (int k = 1; k < 100; k++) {
    #pragma omp ordered depend(sink: k - 1)
    x[k] = x[k - 1] + 1;
    #pragma omp ordered depend(source)
  }
  return (int)x[99];
}
