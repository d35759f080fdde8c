/* expect: 5:27: error: 'bind(teams)' on '#pragma omp parallel loop' */
int main(void)
{
    int a[64];
#pragma omp parallel loop bind(teams)
    for (int i = 0; i < 64; i++)
        a[i] = i;
    return a[3];
}
