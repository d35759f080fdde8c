/* expect: 4:47: error: unknown device kind 'tpu' (expected 'host', 'nohost', 'any', 'cpu', 'gpu', 'fpga') */
int main(void) {
  int a[8];
  #pragma omp metadirective when(device={kind(tpu)}: parallel for) default(nothing)
  for (int i = 0; i < 8; i++) a[i] = i;
  return a[3];
}
