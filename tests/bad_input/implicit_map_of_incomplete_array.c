/* expect: 10:11: error: 'weights' has incomplete type 'double[]' at the target region: mapping it implicitly is not supported */
/* gcc maps it with the size the later definition gives; omp2gpu asks for a section */
#include <stdio.h>

extern double weights[];

int main(void) {
  int n = 4;
  double total = 0.0;
  #pragma omp target teams distribute parallel for reduction(+: total)
  for (int i = 0; i < n; i++)
    total += weights[i];
  printf("%f\n", total);
  return 0;
}

double weights[4] = {1, 2, 3, 4};
