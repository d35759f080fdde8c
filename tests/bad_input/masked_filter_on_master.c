/* expect: 6:20: error: clause 'filter' is not valid on '#pragma omp master' */
int main(void)
{
    int hits = 0;
#pragma omp parallel
#pragma omp master filter(1)
    hits++;
    return hits;
}
