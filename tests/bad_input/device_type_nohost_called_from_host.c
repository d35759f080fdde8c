/* expect: 6:3: error: 'on_device' is 'declare target device_type(nohost)': it has no host version to call here */
void on_device(int *x) { *x = 1; }
#pragma omp declare target enter(on_device) device_type(nohost)
int main(void) {
  int x = 0;
  on_device(&x);
  return x;
}
