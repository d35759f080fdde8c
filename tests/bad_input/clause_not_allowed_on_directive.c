/* expect: 4:26: error: clause 'schedule' is not valid on '#pragma omp parallel' */
int main(void) {
    int a = 0;
    #pragma omp parallel schedule(static)
    a = 1;
    return a;
}
