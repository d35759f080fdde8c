/* expect: 8:40: error: 'device' needs an integer expression */
/* OpenMP's device clause takes an integer expression (gcc: "expected integer
 * expression"): a pointer is not converted to a device number. */
int main(void)
{
    int a[4] = {1, 2, 3, 4};
    int *where = a;
#pragma omp target update to(a) device(where)
    return a[0] != 1;
}
