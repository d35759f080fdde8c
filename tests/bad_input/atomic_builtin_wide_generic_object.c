/* expect: 7:5: error: '__atomic_load' on an object of 24 bytes is not supported (1, 2, 4 or 8 bytes) */
struct triple { long a, b, c; };
int main(void)
{
    struct triple shared = {1, 2, 3}, copy;
#pragma omp parallel
    __atomic_load(&shared, &copy, __ATOMIC_SEQ_CST);
    return (int)copy.a;
}
