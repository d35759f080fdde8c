/* expect: 3:9: error: '#pragma omp end assumes' without a matching '#pragma omp begin assumes' */
int f(int x);
#pragma omp end assumes
int main(void)
{
    return f(1);
}
int f(int x) { return x; }
