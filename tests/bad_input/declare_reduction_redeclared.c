/* expect: 4:39: error: redeclaration of 'merge' '#pragma omp declare reduction' for type 'long' */
struct pair { long a, b; };
#pragma omp declare reduction(merge : long : omp_out += omp_in)
#pragma omp declare reduction(merge : long : omp_out = omp_out > omp_in ? omp_out : omp_in)
int main(void)
{
    return 0;
}
