/* expect: 4:28: error: the 'weak' clause requires an equality comparison */
int x, e = 3;
int main(void) {
#pragma omp atomic compare weak
  if (x < e) { x = e; }
  return x;
}
