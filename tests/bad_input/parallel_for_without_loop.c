/* expect: 5:5: error: '#pragma omp parallel for' must be followed by a for loop */
int main(void) {
    int s = 0;
    #pragma omp parallel for
    s = s + 1;
    return s;
}
