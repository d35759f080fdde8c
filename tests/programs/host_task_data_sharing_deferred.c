/* What a deferred task sees: a local of the generating function is firstprivate by
 * default, its value captured when the task is created (later changes by the creator are
 * not seen, even though the task runs later); a variable shared by the enclosing parallel
 * region stays shared; an if(0) task is undeferred: done before the creator goes on. */
#include <stdio.h>
#include <string.h>
#include <omp.h>

#define TASKS 50

struct request {
    int id;
    char tag[12];
    double payload[4];
};

static int results[TASKS];

static void serve(struct request r, int slot)
{
    int sum = r.id * 100;
    for (int k = 0; k < 4; k++)
        sum += (int)r.payload[k];
    sum += (int)strlen(r.tag);
    results[slot] = sum;
}

int main(void)
{
    int shared_counter = 0, undeferred_done = 0, seen_after = -1;

#pragma omp parallel shared(shared_counter)
    {
#pragma omp single
        {
            struct request r;           /* reused for every request: each task has its copy */
            for (int t = 0; t < TASKS; t++) {
                r.id = t;
                snprintf(r.tag, sizeof r.tag, "req-%d", t);
                for (int k = 0; k < 4; k++)
                    r.payload[k] = t + k;
#pragma omp task
                serve(r, t);
                memset(&r, 0xff, sizeof r);     /* scribble: the task must not see this */
#pragma omp task shared(shared_counter)
                {
#pragma omp atomic
                    shared_counter++;
                }
            }
            int local = 5;
#pragma omp task if(0) shared(undeferred_done) firstprivate(local)
            undeferred_done = local * 2;
            seen_after = undeferred_done;       /* no taskwait needed: the task is done */
        }
    }
    int ok = 1;
    for (int t = 0; t < TASKS; t++) {
        char tag[12];
        int expected = t * 100 + 4 * t + 6 + snprintf(tag, sizeof tag, "req-%d", t);
        ok = ok && results[t] == expected;
    }
    printf("each task saw its request as created: %d\n", ok);
    printf("shared counter %d, undeferred task done before the creator went on: %d\n", shared_counter,
           seen_after == 10);
    return 0;
}
