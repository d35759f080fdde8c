/* expect: 9:13: error: 'break' */
/* xfail: break out of an OpenMP loop is accepted (and leaves the whole loop on the host) */
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
