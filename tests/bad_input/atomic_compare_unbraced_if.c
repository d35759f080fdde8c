/* expect: 5:3: error: invalid form of '#pragma omp atomic compare' */
int x, e = 3;
int main(void) {
#pragma omp atomic compare
  if (x < e) x = e;
  return x;
}
