/* expect: 5:36: error: 'b' */
/* xfail: the host scheme does not check map list items (the offload scheme reports them) */
int main(void) {
    int a[10];
    #pragma omp target map(tofrom: b[0:10])
    a[0] = 1;
    return a[0];
}
