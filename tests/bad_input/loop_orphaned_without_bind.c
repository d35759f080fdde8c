/* expect: 5:9: error: 'bind' clause not specified on a 'loop' construct */
/* An orphaned loop (no construct around it in its function) must say what it binds to. */
void scale(double *x, int n)
{
#pragma omp loop
    for (int i = 0; i < n; i++)
        x[i] *= 2.0;
}

int main(void)
{
    double x[8] = {0};
    scale(x, 8);
    return 0;
}
