/* expect: 6:45: error: 'x' appears more than once in data clauses */
int main(void)
{
    int x = 0, i;
    int a[4];
#pragma omp parallel for private(x) private(x)
    for (i = 0; i < 4; i++)
        a[i] = i;
    for (i = 0; i < 4 i++)
        x += a[i];
    return x;
}
