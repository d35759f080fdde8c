/* expect: 7:41: error: iterator 'x' must have an integer type here */
int main(void)
{
    int a[8] = {0};
#pragma omp parallel
#pragma omp single
#pragma omp task depend(iterator(double x = 0:8), in: a[(int)x])
    a[0] = 1;
    return a[0];
}
