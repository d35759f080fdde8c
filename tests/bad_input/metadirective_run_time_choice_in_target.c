/* expect: 6:13: error: a metadirective decided when the program runs is not supported in code compiled for the GPU */
int main(int argc, char **argv) {
  int a[100];
  #pragma omp target map(from: a)
  {
    #pragma omp metadirective when(user={condition(argc > 1)}: parallel for) default(nothing)
    for (int i = 0; i < 100; i++) a[i] = i;
  }
  return a[5] != 5;
}
