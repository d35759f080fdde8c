/* expect: 5:26: error: use of undeclared identifier 'q' */
int main(void)
{
    int a[8], i;
#pragma omp simd aligned(q:8)
    for (i = 0; i < 8; i++)
        a[i] = i;
    return a[7];
}
