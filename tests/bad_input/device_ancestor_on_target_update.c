/* expect: 5:33: error: 'device(ancestor: ...)' is only allowed on a 'target' construct, not '#pragma omp target update' */
#pragma omp requires reverse_offload
int main(void) {
  int x = 0;
#pragma omp target update to(x) device(ancestor: 1)
  return x;
}
