/* expect: 9:34: error: a reduction over an array section needs a one-dimensional array variable of arithmetic type here */
int main(void)
{
    int storage[4] = {0};
    int *p = storage;
#pragma omp parallel
#pragma omp single
#pragma omp taskgroup task_reduction(+: p[0:4])
#pragma omp task in_reduction(+: p[0:4])
    p[0]++;
    return storage[0];
}
