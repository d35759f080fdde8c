/* expect: 4:33: error: expected 'seq_cst' or 'acquire' or 'relaxed' in 'fail' clause */
int x, e = 3;
int main(void) {
#pragma omp atomic compare fail(release)
  if (x == e) { x = 0; }
  return x;
}
