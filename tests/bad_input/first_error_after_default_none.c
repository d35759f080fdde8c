/* expect: 10:17: error: expected a variable name in 'private' clause */
/* default(none) is checked when gcc lowers the region, after the file is read */
int main(void)
{
    int a[8], n = 8;
#pragma omp parallel for default(none) shared(a)
    for (int i = 0; i < n; i++)
        a[i] = i;
#pragma omp parallel for \
        private(-1)
    for (int i = 0; i < 8; i++)
        a[i] = 2 * i;
    return a[7];
}
