/* expect: 4:27: error: the 'weak' clause requires the 'compare' clause */
int x;
int main(void) {
#pragma omp atomic update weak
  x++;
  return x;
}
