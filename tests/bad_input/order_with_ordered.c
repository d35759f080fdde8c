/* expect: 5:26: error: 'order' clause must not be used together with 'ordered' */
int main(void)
{
    int a[64];
#pragma omp parallel for order(concurrent) ordered
    for (int i = 0; i < 64; i++)
        a[i] = i;
    return a[3];
}
