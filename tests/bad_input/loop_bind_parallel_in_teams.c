/* expect: 7:9: error: a 'loop' region binding to a parallel region may not be closely nested inside a 'teams' region */
int main(void)
{
    int a[64];
#pragma omp target teams map(from: a)
    {
#pragma omp loop bind(parallel)
        for (int i = 0; i < 64; i++)
            a[i] = i;
    }
    return a[3];
}
