/* expect: 3:30: error: use of undeclared identifier 'q' */
int main(void) { int s = 0;
#pragma omp parallel private(q)
s = 1;
return s; }
