/* expect: 5:20: error: invalid combination 'target loop' */
int main(void)
{
    int a[64];
#pragma omp target loop map(from: a)
    for (int i = 0; i < 64; i++)
        a[i] = i;
    return a[3];
}
