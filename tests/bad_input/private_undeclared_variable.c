/* expect: 3:30: error: 'q' in a data-sharing clause is not a variable */
int main(void) { int s = 0;
#pragma omp parallel private(q)
s = 1;
return s; }
