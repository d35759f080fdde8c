/* expect: 12:17: error: invalid branch to/from OpenMP structured block */
int main(void)
{
    int step, j, sum = 0;
    for (step = 0; step < 4; step++) {
#pragma omp parallel reduction(+: sum)
        {
            for (j = 0; j < 2; j++)     /* a loop inside the region may break */
                if (j)
                    break;
            if (step == 2)
                continue;           /* but this leaves the region */
            sum += step;
        }
    }
    return sum;
}
