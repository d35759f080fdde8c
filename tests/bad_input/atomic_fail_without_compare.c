/* expect: 4:20: error: the 'fail' clause requires the 'compare' clause */
int x;
int main(void) {
#pragma omp atomic fail(acquire)
  x++;
  return x;
}
