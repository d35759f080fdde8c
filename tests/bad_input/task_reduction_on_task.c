/* expect: 5:18: error: clause 'task_reduction' is not valid on '#pragma omp task' */
int main(void)
{
    int sum = 0;
#pragma omp task task_reduction(+: sum)
    sum++;
    return sum;
}
