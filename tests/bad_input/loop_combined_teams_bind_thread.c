/* expect: 5:31: error: 'bind(thread)' on '#pragma omp target teams loop' */
int main(void)
{
    int a[64];
#pragma omp target teams loop bind(thread) map(from: a)
    for (int i = 0; i < 64; i++)
        a[i] = i;
    return a[3];
}
