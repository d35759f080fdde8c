/* expect: 7:9: error: a 'loop' region binding to a parallel region may not be closely nested inside a 'for' region */
int main(void)
{
    int a[8][8];
#pragma omp parallel for
    for (int i = 0; i < 8; i++) {
#pragma omp loop bind(parallel)
        for (int j = 0; j < 8; j++)
            a[i][j] = i + j;
    }
    return a[3][4];
}
