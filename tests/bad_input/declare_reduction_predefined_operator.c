/* expect: 2:35: error: '#pragma omp declare reduction' may not redefine predefined reduction '+' for arithmetic type 'int' */
#pragma omp declare reduction(+ : int : omp_out += omp_in)
int main(void)
{
    return 0;
}
