/* expect: 5:1: error: '#pragma omp parallel' must be followed by a statement */
int main(void) { int a = 0;
{
#pragma omp parallel
}
return a; }
