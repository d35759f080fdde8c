/* expect: 5:20: error: 'x' in '#pragma omp depobj' is not an 'omp_depend_t' */
int main(void)
{
    int x = 0, a = 0;
#pragma omp depobj(x) depend(in: a)
    return x + a;
}
