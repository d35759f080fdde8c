/* expect: 4:108: error: duplicate 'initializer' clause on '#pragma omp declare reduction' */
struct box { int n; };
static void box_empty(struct box *b) { b->n = 0; }
#pragma omp declare reduction(grow : struct box : omp_out.n += omp_in.n) initializer(box_empty(&omp_priv)) initializer(box_empty(&omp_priv))
int main(void)
{
    struct box b = { 0 };
    return b.n;
}
