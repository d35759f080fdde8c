/* expect: 7:37: error: 'device(ancestor: ...)' must name ancestor 1, the device that encountered the enclosing target region */
#pragma omp requires reverse_offload
int main(void) {
  int x = 0;
#pragma omp target map(tofrom: x)
  {
#pragma omp target device(ancestor: 2) map(tofrom: x)
    x = 1;
  }
  return x - 1;
}
