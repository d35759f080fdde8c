/* expect: 7:33: error: 'a' in 'depend(depobj: ...)' is not an 'omp_depend_t' */
int main(void)
{
    int a = 0;
#pragma omp parallel
#pragma omp single
#pragma omp task depend(depobj: a)
    a++;
    return a;
}
