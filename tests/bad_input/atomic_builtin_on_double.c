/* expect: 6:5: error: operand type 'double *' is incompatible with argument 1 of '__atomic_fetch_add' */
int main(void)
{
    double energy = 0.0;
#pragma omp parallel
    __atomic_fetch_add(&energy, 1.0, __ATOMIC_RELAXED);
    return (int)energy;
}
