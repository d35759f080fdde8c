/* The classic pointer-chasing pattern: one thread (single nowait) walks a linked list
 * and creates a task per node while the rest of the team, waiting at the region's end
 * barrier, runs the tasks; the node pointer is firstprivate by default. A second pass
 * frees nothing until every task is done (the barrier), then reports in list order. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

struct node {
    int id;
    int work;
    double result;
    struct node *next;
};

static struct node *make_list(int n)
{
    struct node *head = NULL;
    for (int k = n - 1; k >= 0; k--) {
        struct node *e = malloc(sizeof *e);
        e->id = k;
        e->work = 50 + (k * 97) % 300;
        e->result = 0.0;
        e->next = head;
        head = e;
    }
    return head;
}

static void process(struct node *e)
{
    double x = 0.0;
    for (int k = 1; k <= e->work; k++)
        x += (double)e->id / k;
    e->result = x;
}

int main(void)
{
    struct node *head = make_list(200);
    int created = 0;

#pragma omp parallel
    {
#pragma omp single nowait
        {
            for (struct node *e = head; e != NULL; e = e->next) {
#pragma omp task
                process(e);
                created++;
            }
        }
    }   /* the end of the region waits for every task */

    double sum = 0.0;
    int k = 0;
    for (struct node *e = head; e != NULL; e = e->next, k++) {
        sum += e->result;
        if (k % 50 == 0)
            printf("node %3d: %.6f\n", e->id, e->result);
    }
    printf("%d tasks, total %.6f\n", created, sum);
    while (head != NULL) {
        struct node *next = head->next;
        free(head);
        head = next;
    }
    return 0;
}
