/* expect: 4:30: error: array section or subscript in 'map' clause of a value that is not an array or pointer */
int main(void) {
    int a[4] = {0};
#pragma omp target map(a[0:2][1])
    a[0] = 1;
    return a[0];
}
