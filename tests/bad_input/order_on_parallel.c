/* expect: 5:22: error: clause 'order' is not valid on '#pragma omp parallel' */
int main(void)
{
    int a = 0;
#pragma omp parallel order(concurrent)
    a = 1;
    return a;
}
