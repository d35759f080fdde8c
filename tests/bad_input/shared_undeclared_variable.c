/* expect: 6:33: error: use of undeclared identifier 'total' */
/* was accepted: shared, linear and aligned named nothing */
int main(void)
{
    int a[8], i;
#pragma omp parallel for shared(total)
    for (i = 0; i < 8; i++)
        a[i] = i;
    return a[7];
}
