/* expect: 6:57: error: 'scale' may not be used in the combiner of '#pragma omp declare reduction': only omp_out and omp_in may */
int main(void)
{
    int sum = 0;
    int scale = 3;
#pragma omp declare reduction(scaled : int : omp_out += scale * omp_in)
#pragma omp parallel for reduction(scaled : sum)
    for (int i = 0; i < 10; i++)
        sum += i;
    return sum;
}
