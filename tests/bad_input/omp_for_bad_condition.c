/* expect: 5:17: error: condition */
int main(void) {
    int i, s = 0;
    #pragma omp parallel for
    for (i = 0; s < 10; i++)
        s++;
    return s;
}
