/* expect: 5:32: error: expected 'concurrent' in 'order' clause */
int main(void)
{
    int a[64];
#pragma omp parallel for order(reproducible)
    for (int i = 0; i < 64; i++)
        a[i] = i;
    return a[3];
}
