/* expect: 8:13: error: 'break' */
int main(void) {
    int i, found = -1;
    #pragma omp parallel for
    for (i = 0; i < 100; i++) {
        if (i * i == 49) {
            found = i;
            break;
        }
    }
    return found;
}
