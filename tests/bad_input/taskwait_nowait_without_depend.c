/* expect: 5:22: error: 'nowait' on '#pragma omp taskwait' needs a 'depend' clause */
int main(void)
{
    int a = 0;
#pragma omp taskwait nowait
    return a;
}
