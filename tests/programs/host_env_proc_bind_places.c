// env: OMP_PROC_BIND=spread,close
// env: OMP_PLACES=cores
// env: OMP_WAIT_POLICY=passive
/* Thread affinity from the environment, as an HPC job sets it: OMP_PROC_BIND's list
 * gives the outer level spread and the nested level close, OMP_PLACES=cores makes one
 * place per core; every thread of a bound team sits in a place of its partition.
 * OMP_WAIT_POLICY=passive only changes how idle threads wait. The number of places
 * depends on the machine, so only relations between the values are printed. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

static const char *policy(omp_proc_bind_t p)
{
    switch (p) {
    case omp_proc_bind_false: return "false";
    case omp_proc_bind_true: return "true";
    case omp_proc_bind_master: return "master";
    case omp_proc_bind_close: return "close";
    case omp_proc_bind_spread: return "spread";
    default: return "?";
    }
}

int main(void)
{
    int places = omp_get_num_places(), placed = 1, inner_policy = -1;

    printf("bind policy outside: %s, places: %s\n", policy(omp_get_proc_bind()), places > 0 ? "some" : "none");
    int total_procs = 0;
    for (int p = 0; p < places; p++)
        total_procs += omp_get_place_num_procs(p);
    printf("every place has processors: %d\n", places == 0 || total_procs >= places);

#pragma omp parallel num_threads(2) reduction(&&:placed)
    {
        int here = omp_get_place_num(), in_partition = 0, count = omp_get_partition_num_places();
        int *ids = malloc((count > 0 ? count : 1) * sizeof(int));
        omp_get_partition_place_nums(ids);
        for (int k = 0; k < count; k++)
            in_partition = in_partition || ids[k] == here;
        free(ids);
        placed = placed && here >= 0 && here < places && in_partition;
#pragma omp master
        inner_policy = omp_get_proc_bind();
    }
    printf("each thread in a place of its partition: %d\n", placed);
    printf("bind policy for the next level, inside: %s\n", policy((omp_proc_bind_t)inner_policy));

    long work = 0;
#pragma omp parallel proc_bind(master) reduction(+:work)
    for (int i = 0; i < 1000; i++)
        work += i % 7;
    printf("work under proc_bind(master): %ld per thread\n", work / omp_get_max_threads());
    return 0;
}
