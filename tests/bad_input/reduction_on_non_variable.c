/* expect: 4:43: error: expected a variable name in 'reduction' clause */
int main(void) {
    int i, s[2] = {0, 0};
    #pragma omp parallel for reduction(+: 42)
    for (i = 0; i < 10; i++)
        s[0] += i;
    return s[0];
}
