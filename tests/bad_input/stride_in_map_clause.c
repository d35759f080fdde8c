/* expect: 5:37: error: strided sections are allowed only in the 'to' and 'from' clauses of 'target update' */
/* A strided section in a map clause: a mapping is contiguous. */
int main(void) {
    double a[16] = {0};
#pragma omp target map(tofrom: a[0:8:2])
    a[0] = 1.0;
    return 0;
}
