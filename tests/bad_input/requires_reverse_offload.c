/* expect: 2:22: error: '#pragma omp requires reverse_offload' is not supported */
#pragma omp requires reverse_offload
int main(void) { return 0; }
