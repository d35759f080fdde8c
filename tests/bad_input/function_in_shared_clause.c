/* expect: 3:29: error: 'main' in a data-sharing clause is not a variable */
int main(void) {
#pragma omp parallel shared(main)
    { }
    return 0;
}
