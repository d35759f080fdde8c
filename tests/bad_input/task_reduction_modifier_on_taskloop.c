/* expect: 5:22: error: 'task' reduction modifier is not valid on '#pragma omp taskloop' */
int main(void)
{
    int sum = 0;
#pragma omp taskloop reduction(task, +: sum)
    for (int i = 0; i < 10; i++)
        sum += i;
    return sum;
}
