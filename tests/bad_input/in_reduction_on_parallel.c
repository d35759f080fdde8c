/* expect: 5:22: error: clause 'in_reduction' is not valid on '#pragma omp parallel' */
int main(void)
{
    int sum = 0;
#pragma omp parallel in_reduction(+: sum)
    sum += 1;
    return sum;
}
