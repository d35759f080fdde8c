/* expect: 8:21: error: 'for' region may not be closely nested inside a 'critical' region */
int main(void) {
    int a[10];
    #pragma omp parallel
    {
        #pragma omp critical
        {
            #pragma omp for
            for (int i = 0; i < 10; i++)
                a[i] = i;
        }
    }
    return a[3] - 3;
}
