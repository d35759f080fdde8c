/* expect: 7:38: error: the stride of an array section must be positive, not -2 */
/* A strided target update with a negative stride. */
int main(void) {
    double a[16] = {0};
#pragma omp target data map(tofrom: a)
    {
#pragma omp target update from(a[0:4:-2])
    }
    return 0;
}
