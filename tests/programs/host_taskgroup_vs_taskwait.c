/* taskwait waits for a task's children only; taskgroup waits for every descendant. A tree
 * walk spawns a task per node and each node's task spawns its children without waiting,
 * so only a taskgroup (or nested taskwaits) guarantees the whole tree is done. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define DEPTH 9

struct tree {
    struct tree *left, *right;
    int depth;
    long weight;
};

static long visited = 0;

static struct tree *build(int depth, long *next)
{
    struct tree *t = malloc(sizeof *t);
    t->depth = depth;
    t->weight = (*next)++;
    t->left = depth > 0 ? build(depth - 1, next) : NULL;
    t->right = depth > 0 ? build(depth - 1, next) : NULL;
    return t;
}

static void release(struct tree *t)
{
    if (t == NULL)
        return;
    release(t->left);
    release(t->right);
    free(t);
}

/* fire and forget: no taskwait anywhere below */
static void visit(struct tree *t)
{
#pragma omp atomic
    visited += t->weight;
    if (t->left != NULL) {
#pragma omp task firstprivate(t)
        visit(t->left);
#pragma omp task firstprivate(t)
        visit(t->right);
    }
}

/* waits for its children at every level: the sum is complete when it returns */
static long sum_with_taskwait(struct tree *t)
{
    long l = 0, r = 0;
    if (t->left == NULL)
        return t->weight;
#pragma omp task shared(l)
    l = sum_with_taskwait(t->left);
#pragma omp task shared(r)
    r = sum_with_taskwait(t->right);
#pragma omp taskwait
    return t->weight + l + r;
}

int main(void)
{
    long next = 1;
    struct tree *root = build(DEPTH, &next);
    long expected = (next - 1) * next / 2, after_group = -1, by_taskwait = -1;

#pragma omp parallel
#pragma omp single
    {
#pragma omp taskgroup
        {
#pragma omp task
            visit(root);
        }
        /* every descendant of the group's task has finished here */
#pragma omp atomic read
        after_group = visited;
        by_taskwait = sum_with_taskwait(root);

        /* taskgroup in a loop of independent rounds */
        for (int round = 0; round < 3; round++) {
#pragma omp taskgroup
            {
                for (int k = 0; k < 10; k++) {
#pragma omp task
                    visit(root->left);
                }
            }
        }
    }
    printf("nodes %ld, sum after the taskgroup %d, by taskwait %d\n", next - 1, after_group == expected,
           by_taskwait == expected);
    printf("visited total %ld\n", visited);
    release(root);
    return 0;
}
