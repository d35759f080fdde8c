/* expect: 4:42: error: unknown trait selector 'colour' in selector set 'device' (expected 'kind', 'isa', 'arch') */
int main(void) {
  int x = 0;
  #pragma omp metadirective when(device={colour(red)}: parallel) default(nothing)
  x = 1;
  return x;
}
