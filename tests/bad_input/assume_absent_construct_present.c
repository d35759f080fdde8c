/* expect: 7:9: error: '#pragma omp parallel for' inside an 'assume' region whose 'absent' clause names 'parallel' */
int main(void)
{
    int a[64];
#pragma omp assume absent(parallel, taskloop)
    {
#pragma omp parallel for
        for (int i = 0; i < 64; i++)
            a[i] = i;
    }
    return a[5];
}
