/* expect: 5:25: error: 'hint' clause needs an integer constant expression */
int x;
int main(int argc, char **argv) {
  (void)argv;
#pragma omp atomic hint(argc)
  x++;
  return x;
}
