/* expect: 6:26: error: invalid controlling predicate */
int main(void)
{
    int hits[2] = {0, 0};
#pragma omp parallel for
    for (_Bool side = 0; side < 1; side++)
        hits[side] += 1;
    return hits[0];
}
