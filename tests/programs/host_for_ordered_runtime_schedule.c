// env: OMP_SCHEDULE=dynamic,3
/* An ordered loop whose schedule comes from OMP_SCHEDULE (schedule(runtime), dynamic,3
 * here): a log of records is written in order while the expensive part of each
 * iteration runs concurrently, and a guided ordered loop does the same. */
#include <stdio.h>
#include <string.h>
#include <omp.h>

#define N 60

static char text[N * 8 + 1];
static int used = 0;

static int digest(int i)
{
    unsigned h = 2166136261u;
    for (int k = 0; k < 2000 + (i % 7) * 500; k++)
        h = (h ^ (unsigned)(i + k)) * 16777619u;
    return (int)(h % 1000);
}

static void append(int value)
{
    used += sprintf(text + used, "%d,", value % 100);
}

int main(void)
{
    int previous = -1, in_order = 1;

#pragma omp parallel for ordered schedule(runtime)
    for (int i = 0; i < N; i++) {
        int d = digest(i);
#pragma omp ordered
        {
            in_order = in_order && i == previous + 1;
            previous = i;
            append(d);
        }
    }
    printf("runtime ordered, in order %d: %.60s...\n", in_order, text);

    used = 0;
    previous = -1;
#pragma omp parallel for ordered schedule(guided, 2)
    for (int i = 0; i < N; i++) {
        int d = digest(N - i);
#pragma omp ordered
        {
            in_order = in_order && i == previous + 1;
            previous = i;
            append(d);
        }
    }
    printf("guided ordered, in order %d, %d characters, ends %s\n", in_order, used, text + used - 12);
    return 0;
}
