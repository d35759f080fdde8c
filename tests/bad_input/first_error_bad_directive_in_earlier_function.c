/* expect: 5:26: error: clause 'map' is not valid on '#pragma omp parallel for' */
static int sum(const int *a, int n)
{
    int s = 0, i;
#pragma omp parallel for map(to: a[0:n]) reduction(+: s)
    for (i = 0; i < n; i++)
        s += a[i];
    return s;
}

int main(void)
{
    int a[4] = { 1, 2, 3, 4 };
    return sum(a, 4) + ;
}
