/* expect: 8:9: error: reduction variable 'minimum' is private in outer context */
/* An orphaned worksharing loop in main: its reduction's array is main's local, private
   to each thread of whatever region main's code runs in (gcc's rule). */
#include <stdio.h>
int main(void)
{
    int minimum[8] = { 0 };
#pragma omp for reduction(min: minimum[0:8])
    for (int i = 0; i < 64; i++)
        if (i < minimum[i % 8])
            minimum[i % 8] = i;
    printf("%d\n", minimum[0]);
    return 0;
}
