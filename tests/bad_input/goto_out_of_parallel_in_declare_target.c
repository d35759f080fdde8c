/* expect: 9:20: error: invalid branch to/from OpenMP structured block */
/* A function in a declare target block is checked as any other. */
#pragma omp declare target
int f(int n)
{
    int s = 0;
#pragma omp parallel for reduction(+: s)
    for (int i = 0; i < n; i++) {
        if (i > 3) goto out;
        s += i;
    }
out:
    return s;
}
#pragma omp end declare target
int main(void) { return f(4); }
