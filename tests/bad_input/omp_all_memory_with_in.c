/* expect: 5:29: error: 'omp_all_memory' may only appear in a 'depend(out: ...)' or 'depend(inout: ...)' clause */
int main(void)
{
    int a = 0;
#pragma omp task depend(in: omp_all_memory)
    a++;
    return a;
}
