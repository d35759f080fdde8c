/* A target parallel loop whose iterations compute in parallel and append to a log in
   iteration order through an ordered block (a running checksum that depends on the
   order). The GPU's control loop ran ordered blocks in no order: such regions run on
   the host (tests/host_regions.py), which orders them. */
#include <stdio.h>

#define STEPS 96

int main(void)
{
    int log[STEPS], count = 0, i;
    long checksum = 0;

#pragma omp target parallel for ordered schedule(dynamic, 3) map(tofrom: log, count, checksum)
    for (i = 0; i < STEPS; i++) {
        int work = (i * 37) % 11 + i;          /* unordered part */
#pragma omp ordered
        {
            log[count++] = i;
            checksum = checksum * 31 % 1000003 + work;
        }
    }
    for (i = 0; i < STEPS; i++)
        if (log[i] != i)
            break;
    printf("count %d, in order up to %d, checksum %ld\n", count, i, checksum);
    return 0;
}
