/* expect: 7:22: error: '#pragma omp requires unified_shared_memory' used lexically after the first device construct ('#pragma omp target', line 4) */
void scale(double *a, int n) {
  /* the requirement must come before every device construct of the file */
#pragma omp target map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] *= 2;
}
#pragma omp requires unified_shared_memory
int main(void) { return 0; }
