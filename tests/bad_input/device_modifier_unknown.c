/* expect: 4:27: error: expected 'device_num' or 'ancestor' in 'device' clause modifier */
int main(void) {
  int x = 0;
#pragma omp target device(parent: 1) map(tofrom: x)
  x = 1;
  return x - 1;
}
