/* expect: 6:44: error: no '#pragma omp declare reduction' for 'merge' and type 'double' */
#pragma omp declare reduction(merge : int : omp_out += omp_in)
int main(void)
{
    double total = 0.0;
#pragma omp parallel for reduction(merge : total)
    for (int i = 0; i < 10; i++)
        total += i;
    return (int)total;
}
