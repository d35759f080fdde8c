/* expect: 2:9: error: '#pragma omp error' with 'at(execution)' clause may only be used in compound statements */
#pragma omp error at(execution) message("too late")
int main(void)
{
    return 0;
}
