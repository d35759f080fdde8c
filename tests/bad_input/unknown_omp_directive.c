/* expect: 4:17: error: unknown OpenMP directive 'paralel' */
int main(void) {
    int a = 0;
    #pragma omp paralel
    a = 1;
    return a;
}
