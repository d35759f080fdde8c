/* expect: 7:3: error: 'on_host' is 'declare target device_type(host)': it has no device version to call in a target region */
void on_host(int *x) { *x = 1; }
#pragma omp declare target to(on_host) device_type(host)
int main(void) {
  int x = 0;
  #pragma omp target map(tofrom: x)
  on_host(&x);
  return x;
}
