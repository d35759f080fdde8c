/* expect: 4:28: error: unknown map type or modifier 'into' in 'map' clause */
int main(void) {
    int a[10];
    #pragma omp target map(into: a)
    a[0] = 1;
    return a[0];
}
