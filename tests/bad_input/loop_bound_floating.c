/* expect: 7:21: error: invalid controlling predicate */
/* tests/fuzz seed 3412905: an OpenMP loop's bound of floating type, which gcc refuses */
int main(void)
{
    int hits = 0;
#pragma omp parallel for reduction(+: hits)
    for (int i = 0; i < 1000.; i++)
        hits++;
    return hits != 1000;
}
