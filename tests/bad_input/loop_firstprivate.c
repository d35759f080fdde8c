/* expect: 6:18: error: clause 'firstprivate' is not valid on '#pragma omp loop' */
int main(void)
{
    int a[64], k = 3;
#pragma omp parallel
#pragma omp loop firstprivate(k)
    for (int i = 0; i < 64; i++)
        a[i] = i + k;
    return a[3];
}
