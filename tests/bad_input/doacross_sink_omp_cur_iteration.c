/* expect: 7:40: error: 'doacross(sink: omp_cur_iteration - 1)' is not supported; name the iteration by its loop variables */
int main(void) {
  static double x[100];
  #pragma omp parallel for ordered(1)
  for (int k = 1; k < 100; k++) {
    x[k] = 1;
    #pragma omp ordered doacross(sink: omp_cur_iteration - 1)
    x[k] += x[k - 1];
    #pragma omp ordered doacross(source:)
  }
  return (int)x[99];
}
