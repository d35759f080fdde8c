/* expect: 6:30: error: 'lastprivate' clause on a 'loop' construct refers to a variable 'last' which is not the loop iterator */
int main(void)
{
    int a[64], i, last = 0;
#pragma omp parallel
#pragma omp loop lastprivate(last)
    for (i = 0; i < 64; i++) {
        a[i] = i;
        last = i;
    }
    return last;
}
