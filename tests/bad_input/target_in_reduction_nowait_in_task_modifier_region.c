/* expect: 7:36: error: 'in_reduction(sum)' on a 'target ... nowait' inside a construct that privatises 'sum' is not supported */
int main(void)
{
    int sum = 0;
#pragma omp parallel reduction(task, +: sum)
    {
#pragma omp target in_reduction(+: sum) nowait
        sum += 1;
    }
    return sum;
}
