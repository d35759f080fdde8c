/* expect: 7:16: error: use of undeclared identifier 'total' */
/* the directive at line 10 is read before any expression is typed; its error comes later */
int main(void)
{
    int a[8], i;
    for (i = 0; i < 8; i++)
        a[i] = total;
#pragma omp parallel for private(i) private(i)
    for (i = 0; i < 8; i++)
        a[i] = i;
    return a[0];
}
