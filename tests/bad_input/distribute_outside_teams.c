/* expect: 5:13: error: 'distribute' region must be closely nested inside a 'teams' region */
int main(void) {
    int a[10];
    #pragma omp target map(from: a)
    #pragma omp distribute
    for (int i = 0; i < 10; i++)
        a[i] = i;
    return a[3] - 3;
}
