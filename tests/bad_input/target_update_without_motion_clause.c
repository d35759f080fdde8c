/* expect: 3:13: error: needs at least one 'to' or 'from' clause */
int main(void) { int a = 0;
#pragma omp target update
return a; }
