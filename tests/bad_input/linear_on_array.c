/* expect: 5:25: error: linear clause applied to non-integral non-pointer variable with type 'int[2]' */
int main(void) {
    int x[2] = {0, 0};
    int i;
#pragma omp simd linear(x: 2)
    for (i = 0; i < 2; i++)
        ;
    return x[0];
}
