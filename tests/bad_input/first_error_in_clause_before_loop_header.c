/* expect: 6:55: error: 's' appears more than once in data clauses */
int main(void)
{
    int a[8], s = 0;
    /* the loop header's syntax error comes after the clause's */
#pragma omp parallel for reduction(+: s) reduction(+: s)
    for (int i = 0; i < 8 i++)
        s += a[i];
    return s;
}
