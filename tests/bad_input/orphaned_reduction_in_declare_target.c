/* expect: 11:13: error: reduction variable 'changed' is private in outer context */
/* Fuzz campaign 2026-11-29 (seed 3401001): an orphaned worksharing reduction on a local of a
 * function inside `declare target` ... `end declare target` (gcc's error; the check skipped
 * the functions of such blocks): accepted before, each thread would have reduced into its
 * own copy. */
#include <stdio.h>

#pragma omp declare target
static int count_changes(const int *a, const int *b, int n) {
    int changed = 0;
    #pragma omp for reduction(+: changed)
    for (int i = 0; i < n; i++)
        changed += a[i] != b[i];
    return changed;
}
#pragma omp end declare target

int main(void)
{
    int a[4] = {1, 2, 3, 4}, b[4] = {1, 0, 3, 0};
    printf("%d\n", count_changes(a, b, 4));
    return 0;
}
