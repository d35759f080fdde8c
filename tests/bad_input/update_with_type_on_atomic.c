/* expect: 5:20: error: 'update(in)' is only valid on '#pragma omp depobj' */
int main(void)
{
    int a = 0;
#pragma omp atomic update(in)
    a++;
    return a;
}
