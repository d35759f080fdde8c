/* expect: 5:3: error: '#pragma omp dispatch' must be followed by a call of a function (or an assignment of one's result) */
int main(void) {
  int x = 0;
  #pragma omp dispatch
  x++;
  return x;
}
