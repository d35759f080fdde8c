/* expect: 5:31: error: 'task' reduction modifier is not valid on '#pragma omp parallel for simd' */
int main(void)
{
    int sum = 0;
#pragma omp parallel for simd reduction(task, +: sum)
    for (int i = 0; i < 10; i++)
        sum += i;
    return sum;
}
