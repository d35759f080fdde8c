/* expect: 5:44: error: clause 'nowait' is not valid on '#pragma omp parallel masked' */
int main(void)
{
    int n = 0;
#pragma omp parallel masked num_threads(2) nowait
    n++;
    return n;
}
