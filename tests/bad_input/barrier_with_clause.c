/* expect: 5:21: error: clause 'nowait' is not valid on '#pragma omp barrier' */
int main(void) { int s = 0;
#pragma omp parallel
{
#pragma omp barrier nowait
}
return s; }
