/* expect: 4:26: error: unknown clause 'shred' on '#pragma omp parallel' */
int main(void) {
    int a = 0;
    #pragma omp parallel shred(a)
    a = 1;
    return a;
}
