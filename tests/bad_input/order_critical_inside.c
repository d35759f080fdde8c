/* expect: 7:9: error: OpenMP constructs other than 'parallel', 'loop', 'simd' or 'atomic' may not be nested inside a region with the 'order(concurrent)' clause */
int main(void)
{
    int sum = 0;
#pragma omp parallel for order(concurrent)
    for (int i = 0; i < 64; i++) {
#pragma omp critical
        sum += i;
    }
    return sum;
}
