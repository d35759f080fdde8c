/* expect: 6:33: error: duplicate 'bind' clause on '#pragma omp loop' */
int main(void)
{
    int a[64];
#pragma omp parallel
#pragma omp loop bind(parallel) bind(parallel)
    for (int i = 0; i < 64; i++)
        a[i] = i;
    return a[3];
}
