/* expect: 2:9: error: '#pragma omp declare target' without a matching */
#pragma omp declare target
int scale(int x) {
    return 2 * x;
}

int main(void) {
    return scale(1);
}
