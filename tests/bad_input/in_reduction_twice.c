/* expect: 10:57: error: 'heavy' appears more than once in data clauses */
/* Fuzz campaign 2026-11-28 (seed 3201002): a variable in two in_reduction clauses of one
 * task, accepted; gcc: "'heavy' appears more than once in data clauses". */
int main(void)
{
    int heavy = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskgroup task_reduction(+: heavy)
#pragma omp task in_reduction(+: heavy) in_reduction(+: heavy)
    heavy++;
    return heavy;
}
