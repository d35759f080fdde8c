/* expect: 5:25: error: linear variable 'x' must have integer or pointer type (it is 'int[2]') */
int main(void) {
    int x[2] = {0, 0};
    int i;
#pragma omp simd linear(x: 2)
    for (i = 0; i < 2; i++)
        ;
    return x[0];
}
