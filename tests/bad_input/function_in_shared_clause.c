/* expect: 3:29: error: 'main' is not a variable in clause 'shared' */
int main(void) {
#pragma omp parallel shared(main)
    { }
    return 0;
}
