/* expect: 3:13: error: '#pragma omp target data' needs at least one 'map' */
int main(void) { int a = 0;
#pragma omp target data
{ a = 1; }
return a; }
