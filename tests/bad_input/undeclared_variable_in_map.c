/* expect: 4:36: error: use of undeclared identifier 'b' */
int main(void) {
    int a[10];
    #pragma omp target map(tofrom: b[0:10])
    a[0] = 1;
    return a[0];
}
