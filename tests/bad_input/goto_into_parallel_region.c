/* expect: 7:9: error: invalid entry to OpenMP structured block */
int main(void)
{
    int retries = 0, sum = 0;

    if (retries > 0)
        goto retry;
#pragma omp parallel reduction(+: sum)
    {
retry:
        sum += 1;
    }
    return sum > 0 ? 0 : 1;
}
