/* expect: 5:9: error: '#pragma omp end declare target' without a matching */
int scale(int x) {
    return 2 * x;
}
#pragma omp end declare target

int main(void) {
    return scale(1);
}
