/* expect: 6:23: error: expected 'teams' or 'parallel' or 'thread' in 'bind' clause */
int main(void)
{
    int a[64];
#pragma omp parallel
#pragma omp loop bind(team)
    for (int i = 0; i < 64; i++)
        a[i] = i;
    return a[3];
}
