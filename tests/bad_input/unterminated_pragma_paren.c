/* expect: 4:44: error: expected ')' after 'reduction' clause arguments */
int main(void) {
    int i, s = 0;
    #pragma omp parallel for reduction(+: s
    for (i = 0; i < 10; i++)
        s += i;
    return s;
}
