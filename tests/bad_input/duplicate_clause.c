/* expect: 4:41: error: duplicate 'num_threads' clause on '#pragma omp parallel' */
int main(void) {
    int a = 0;
    #pragma omp parallel num_threads(2) num_threads(4)
    a = 1;
    return a;
}
