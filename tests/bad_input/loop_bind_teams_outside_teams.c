/* expect: 6:9: error: 'bind(teams)' on a 'loop' region not strictly nested inside of a 'teams' region */
int main(void)
{
    int a[64];
#pragma omp parallel
#pragma omp loop bind(teams)
    for (int i = 0; i < 64; i++)
        a[i] = i;
    return a[3];
}
