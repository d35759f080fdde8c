/* expect: 8:9: error: OpenMP constructs other than 'parallel', 'loop', 'simd' or 'atomic' may not be nested inside a 'loop' region */
int main(void)
{
    int sum = 0;
#pragma omp parallel
#pragma omp loop
    for (int i = 0; i < 64; i++) {
#pragma omp critical
        sum += i;
    }
    return sum;
}
