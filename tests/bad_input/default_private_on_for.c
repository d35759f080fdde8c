/* expect: 6:17: error: clause 'default' is not valid on '#pragma omp for' */
int main(void)
{
    int a[16], t = 0;
#pragma omp parallel
#pragma omp for default(private)
    for (int i = 0; i < 16; i++)
        a[i] = t + i;
    return a[3];
}
