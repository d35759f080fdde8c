/* expect: 3:12: error: expected an OpenMP directive name after 'omp' */
int main(void) { int a = 0;
#pragma omp
a = 1;
return a; }
