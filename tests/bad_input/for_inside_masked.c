/* expect: 9:9: error: 'for' region may not be closely nested inside a 'masked' region */
int main(void)
{
    int a[8];
#pragma omp parallel
    {
#pragma omp masked filter(1)
        {
#pragma omp for
            for (int i = 0; i < 8; i++)
                a[i] = i;
        }
    }
    return a[2];
}
