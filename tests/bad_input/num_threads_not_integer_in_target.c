/* expect: 10:22: error: 'num_threads' needs an integer expression */
/* A parallel region inside a target region: the device builds' evaluation of
 * num_threads checks its type as the host's does. */
int main(void)
{
    int n = 0;
    double threads = 2.0;
#pragma omp target teams map(tofrom: n) firstprivate(threads)
    {
#pragma omp parallel num_threads(threads)
        {
#pragma omp atomic
            n++;
        }
    }
    return n == 0;
}
