/* expect: 6:28: error: 'n' appears both in data and map clauses */
#include <stdio.h>

int main(void) {
    int n = 10, total = 0;
#pragma omp target map(to: n) firstprivate(n) map(tofrom: total)
    total = n * 2;
    printf("%d\n", total);
    return 0;
}
