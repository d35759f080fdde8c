/* expect: 4:26: error: clause 'map' is not valid on '#pragma omp parallel' */
int main(void) {
    int a[10];
    #pragma omp parallel map(to: a)
    a[0] = 1;
    return a[0];
}
