/* expect: 7:5: error: must be followed by a for loop */
int main(void)
{
    int a[64], i = 0;
#pragma omp parallel
#pragma omp loop
    while (i < 64) {
        a[i] = i;
        i++;
    }
    return a[3];
}
