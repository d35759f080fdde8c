/* expect: 6:17: error: condition */
/* xfail: a loop condition that does not test the iteration variable is accepted */
int main(void) {
    int i, s = 0;
    #pragma omp parallel for
    for (i = 0; s < 10; i++)
        s++;
    return s;
}
