/* expect: 5:37: error: 'a' appears more than once in 'aligned' clauses */
int main(void)
{
    int a[8], i;
#pragma omp simd aligned(a) aligned(a)
    for (i = 0; i < 8; i++)
        a[i] = i;
    return a[7];
}
