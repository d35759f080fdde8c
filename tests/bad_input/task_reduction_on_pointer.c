/* expect: 6:41: error: reduction variable 's' must be of arithmetic type */
#include <stdio.h>
int main(void)
{
    const char *s = "ab";
#pragma omp taskgroup task_reduction(+: s)
    printf("%s\n", s);
    return 0;
}
