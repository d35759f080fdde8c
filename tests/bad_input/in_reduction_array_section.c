/* expect: 7:41: error: an array section in a task reduction ('a[0:4]') is not supported */
int main(void)
{
    int a[4] = {0};
#pragma omp parallel
#pragma omp single
#pragma omp taskgroup task_reduction(+: a[0:4])
#pragma omp task in_reduction(+: a[0:4])
    a[0]++;
    return a[0];
}
