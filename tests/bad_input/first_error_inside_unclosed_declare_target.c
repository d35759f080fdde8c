/* expect: 5:18: error: use of undeclared identifier 'y' */
/* the region is never closed (an error at the end of the file); the undeclared name comes first */
#pragma omp declare target
static int twice(int x)
{   return 2 * x + y; }

int main(void)
{
    int r = 0;
#pragma omp target map(tofrom: r)
    r = twice(3);
    return r;
}
