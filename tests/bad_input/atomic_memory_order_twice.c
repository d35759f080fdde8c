/* expect: 4:28: error: at most one memory-order clause */
int x;
int main(void) {
#pragma omp atomic seq_cst acquire
  x++;
  return x;
}
