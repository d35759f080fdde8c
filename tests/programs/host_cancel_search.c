// env: OMP_CANCELLATION=true
/* Cancellation as a search code uses it: the thread that finds the key cancels the
 * worksharing loop (the others stop at their next cancellation point), a task-parallel
 * tree search cancels its taskgroup, and an error found in a parallel region cancels
 * the region. Only the results are printed: how many iterations ran before the others
 * noticed depends on timing (and with one thread nothing is left to cancel). */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 200000
#define WHERE 150001      /* make_key is one-to-one below 1000003: the key is there once */

struct table {
    int *keys;
    int n;
};

static int make_key(int i)
{
    return (int)(((long)i * 7919 + 13) % 1000003);
}

static char ran[N];     /* iterations of the last loop search that ran */

/* schedule(static): the iterations after the key in its block are the finding thread's,
 * and it stops at the cancel, so none of them runs */
static int find_in_loop(const struct table *t, int key)
{
    int found = -1;
    for (int i = 0; i < t->n; i++)
        ran[i] = 0;
#pragma omp parallel shared(found)
    {
#pragma omp for schedule(static)
        for (int i = 0; i < t->n; i++) {
            ran[i] = 1;
            if (t->keys[i] == key) {
#pragma omp atomic write
                found = i;
#pragma omp cancel for
            }
#pragma omp cancellation point for
        }
    }
    return found;
}

static int find_with_tasks(const struct table *t, int key)
{
    int found = -1;
#pragma omp parallel shared(found)
#pragma omp single
#pragma omp taskgroup
    {
        for (int lo = 0; lo < t->n; lo += 5000) {
#pragma omp task firstprivate(lo) shared(found)
            {
                int hi = lo + 5000 < t->n ? lo + 5000 : t->n;
                for (int i = lo; i < hi; i++)
                    if (t->keys[i] == key) {
#pragma omp atomic write
                        found = i;
#pragma omp cancel taskgroup
                    }
            }
        }
    }
    return found;
}

/* a validation pass that gives up as soon as one thread sees a bad entry */
static int validate(const struct table *t, int limit)
{
    int bad = 0;
#pragma omp parallel shared(bad)
    {
        int me = omp_get_thread_num(), team = omp_get_num_threads();
        for (int i = me; i < t->n; i += team) {
            if (t->keys[i] >= limit) {
#pragma omp atomic write
                bad = 1;
#pragma omp cancel parallel
            }
            if (i % 1024 == me) {
#pragma omp cancellation point parallel
            }
        }
    }
    return bad;
}

int main(void)
{
    struct table t = {malloc(N * sizeof(int)), N};
    int where = -1, key = make_key(WHERE);

    for (int i = 0; i < N; i++) {
        t.keys[i] = make_key(i);
        if (t.keys[i] == key)
            where = i;
    }
    printf("cancellation enabled: %d\n", omp_get_cancellation());
    printf("key %d is at %d\n", key, where);
    printf("loop search found it at %d\n", find_in_loop(&t, key));
    int later = 0;
    for (int i = where + 1; i < where + 1000; i++)
        later += ran[i];
    printf("iterations after it that ran: %d\n", later);
    printf("task search found it at %d\n", find_with_tasks(&t, key));
    printf("missing key: loop %d, tasks %d\n", find_in_loop(&t, -5), find_with_tasks(&t, -5));
    printf("validate below 1000003: bad %d; below 500000: bad %d\n", validate(&t, 1000003), validate(&t, 500000));
    free(t.keys);
    return 0;
}
