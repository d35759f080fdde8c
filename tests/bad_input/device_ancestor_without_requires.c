/* expect: 6:20: error: 'device(ancestor: ...)' needs '#pragma omp requires reverse_offload' earlier in the file */
int main(void) {
  int x = 0;
#pragma omp target map(tofrom: x)
  {
#pragma omp target device(ancestor: 1) map(tofrom: x)
    x = 1;
  }
  return x - 1;
}
