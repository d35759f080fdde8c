/* expect: 8:36: error: the stride of an array section must be positive, not 0 */
/* A strided target update with a stride of 0. */
int main(void) {
    double a[16] = {0};
#pragma omp target data map(tofrom: a)
    {
        a[0] = 1.0;
#pragma omp target update to(a[0:8:0])
    }
    return 0;
}
