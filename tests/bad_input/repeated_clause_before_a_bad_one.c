/* expect: 5:55: error: duplicate 'thread_limit' clause */
int main(void)
{
    int a[8] = { 0 };
#pragma omp target teams num_teams(2) thread_limit(8) thread_limit(8) \
        map(tofrom: a a)
    a[0] = 1;
    return a[0];
}
