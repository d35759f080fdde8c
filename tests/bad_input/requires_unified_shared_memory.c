/* expect: 2:22: error: '#pragma omp requires unified_shared_memory' is not supported */
#pragma omp requires unified_shared_memory
int main(void) { return 0; }
