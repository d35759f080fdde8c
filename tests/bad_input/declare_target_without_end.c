/* expect: 9:1: error: '#pragma omp declare target' without a matching */
#pragma omp declare target
int scale(int x) {
    return 2 * x;
}

int main(void) {
    return scale(1);
}
/* gcc reports the region still open at the line of the last token */
