/* expect: 5:32: error: expected 'reproducible' or 'unconstrained' in 'order' modifier */
int main(void)
{
    int a[64];
#pragma omp parallel for order(monotonic: concurrent)
    for (int i = 0; i < 64; i++)
        a[i] = i;
    return a[3];
}
