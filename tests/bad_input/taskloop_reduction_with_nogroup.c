/* expect: 5:40: error: 'reduction' and 'nogroup' cannot both appear on '#pragma omp taskloop' */
int main(void)
{
    int sum = 0;
#pragma omp taskloop reduction(+: sum) nogroup
    for (int i = 0; i < 10; i++)
        sum += i;
    return sum;
}
