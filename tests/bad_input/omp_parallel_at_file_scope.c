/* expect: 3:9: error: '#pragma omp parallel' is not allowed at file scope */
int counter;
#pragma omp parallel
int main(void) {
    return counter;
}
