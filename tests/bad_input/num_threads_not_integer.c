/* expect: 7:34: error: 'num_threads' needs an integer expression */
/* Fuzz campaign 2026-11-28 (seed 3201002): gcc's "expected integer expression"; the
 * value was converted to an int with no message. */
int main(void)
{
    int n = 0;
#pragma omp parallel num_threads(1.5)
    {
#pragma omp atomic
        n++;
    }
    return n == 0;
}
