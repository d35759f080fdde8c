/* expect: 3:22: error: more than one 'atomic_default_mem_order' clause */
#pragma omp requires atomic_default_mem_order(seq_cst)
#pragma omp requires atomic_default_mem_order(acq_rel)
int main(void) { return 0; }
