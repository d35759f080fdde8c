/* expect: 9:32: error: expected a variable name in 'map' clause */
#define TEAMS 4
int main(void)
{
    int a[8], b[8], i;
    for (i = 0; i < 8; i++)
        a[i] = i;
#pragma omp target teams distribute parallel for num_teams(TEAMS)   \
        map(to: a) map(from: b,, i)
    for (i = 0; i < 8; i++)
        b[i] = a[i];
    return b[7];
}
