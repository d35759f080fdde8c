/* expect: 5:7: error: '#pragma omp atomic compare' on an object of type 'char' is not supported */
char level;
int main(void) {
  #pragma omp atomic compare
  if (level < 5) { level = 5; }
  return level;
}
