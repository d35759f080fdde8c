/* expect: 6:18: error: clause 'nowait' is not valid on '#pragma omp loop' */
int main(void)
{
    int a[64];
#pragma omp parallel
#pragma omp loop nowait
    for (int i = 0; i < 64; i++)
        a[i] = i;
    return a[3];
}
