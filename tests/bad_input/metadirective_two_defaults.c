/* expect: 4:90: error: 'otherwise' after 'default': a metadirective has one default directive */
int main(void) {
  int a[8];
  #pragma omp metadirective when(device={kind(gpu)}: parallel for) default(parallel for) otherwise(simd)
  for (int i = 0; i < 8; i++) a[i] = i;
  return a[3];
}
