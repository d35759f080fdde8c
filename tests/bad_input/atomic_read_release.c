/* expect: 4:25: error: '#pragma omp atomic read' is incompatible with the 'release' clause */
int x, v;
int main(void) {
#pragma omp atomic read release
  v = x;
  return v;
}
