/* expect: 7:22: error: clause 'order' is not valid on '#pragma omp taskloop' */
int main(void)
{
    int a[64];
#pragma omp parallel
#pragma omp single
#pragma omp taskloop order(concurrent)
    for (int i = 0; i < 64; i++)
        a[i] = i;
    return a[3];
}
