/* expect: 3:9: error: '#pragma omp requires' is only allowed at file scope */
int main(void) {
#pragma omp requires atomic_default_mem_order(seq_cst)
  return 0;
}
