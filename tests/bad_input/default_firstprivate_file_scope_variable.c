/* expect: 10:9: error: 'counter' not specified in enclosing 'parallel' */
int counter;

int main(void)
{
    int local = 1;
#pragma omp parallel default(firstprivate) num_threads(2)
    {
        local++;
        counter++;
    }
    return local;
}
