/* expect: 7:17: error: '#pragma omp parallel for' must be followed by a for loop */
int main(void)
{
    int a[4], i;
#pragma omp target map(from: a)
#pragma omp parallel for
        #pragma omp barrier
    for (i = 0; i < 4; i++)
        a[i] = i;
    return a[3];
}
