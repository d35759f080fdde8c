/* expect: 5:19: error: 'acq_rel' clause on '#pragma omp flush' with a list */
int main(void)
{
    int flag = 0;
#pragma omp flush acq_rel (flag)
    return flag;
}
