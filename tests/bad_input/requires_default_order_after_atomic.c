/* expect: 7:22: error: 'atomic_default_mem_order' clause used lexically after the first '#pragma omp atomic' */
int x;
void bump(void) {
#pragma omp atomic
  x++;
}
#pragma omp requires atomic_default_mem_order(seq_cst)
int main(void) { bump(); return x; }
