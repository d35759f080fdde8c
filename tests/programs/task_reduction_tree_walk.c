/* A binary tree's node values summed by a recursive walk: the tree is a structure of
 * arrays (value, left, right), the walk spawns a task per subtree that joins the
 * enclosing taskgroup's task reductions with in_reduction (a sum, a maximum, a count of
 * the leaves, the nodes per level as an array), and a time-step loop updates the values between walks. Each step also
 * offloads a checksum over the values as a target task that joins a task reduction
 * (target in_reduction), and a parallel region with reduction(task, ...) sums per-thread
 * work and tasks' work into one result. OpenMP 5.0 task reductions. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define NODES 2047
#define STEPS 4
#define CUTOFF 3            /* below this depth the walk goes on in the same task */

struct tree {
    long value[NODES];
    int left[NODES];
    int right[NODES];
};

static struct tree tree;
#define LEVELS 12
long total, largest;
int leaves;
int per_level[LEVELS];      /* nodes at each depth: an array reduction */

static void build(int seed)
{
    for (int i = 0; i < NODES; i++) {
        tree.value[i] = (i * 37 + seed) % 101;
        tree.left[i] = 2 * i + 1 < NODES ? 2 * i + 1 : -1;
        tree.right[i] = 2 * i + 2 < NODES ? 2 * i + 2 : -1;
    }
}

/* A subtree below the cutoff, summed by one task sequentially. */
static long subtree_sum(int node)
{
    return node < 0 ? 0 : tree.value[node] + subtree_sum(tree.left[node]) + subtree_sum(tree.right[node]);
}

static long subtree_max(int node)
{
    if (node < 0)
        return 0;
    long l = subtree_max(tree.left[node]), r = subtree_max(tree.right[node]);
    long m = l > r ? l : r;
    return tree.value[node] > m ? tree.value[node] : m;
}

static int subtree_leaves(int node)
{
    if (node < 0)
        return 0;
    if (tree.left[node] < 0 && tree.right[node] < 0)
        return 1;
    return subtree_leaves(tree.left[node]) + subtree_leaves(tree.right[node]);
}

static void count_levels(int node, int depth, int *counts)
{
    if (node < 0)
        return;
    counts[depth]++;
    count_levels(tree.left[node], depth + 1, counts);
    count_levels(tree.right[node], depth + 1, counts);
}

/* One task per node down to the cutoff, one per subtree there; every task adds its
 * part to the enclosing taskgroup's reductions. */
static void walk(int node, int depth)
{
    if (node < 0)
        return;
    if (depth == CUTOFF) {
#pragma omp task in_reduction(+: total, leaves, per_level) in_reduction(max: largest) firstprivate(node, depth)
        {
            count_levels(node, depth, per_level);
            total += subtree_sum(node);
            leaves += subtree_leaves(node);
            long m = subtree_max(node);
            if (m > largest)
                largest = m;
        }
        return;
    }
#pragma omp task in_reduction(+: total, per_level) in_reduction(max: largest) firstprivate(node, depth)
    {
        per_level[depth]++;
        total += tree.value[node];
        if (tree.value[node] > largest)
            largest = tree.value[node];
    }
    walk(tree.left[node], depth + 1);
    walk(tree.right[node], depth + 1);
}

int main(int argc, char **argv)
{
    int seed = argc > 2 ? atoi(argv[2]) : 7;
    build(seed);
    for (int step = 0; step < STEPS; step++) {
        long checksum = 0;
        total = 0;
        largest = 0;
        leaves = 0;
        for (int d = 0; d < LEVELS; d++)
            per_level[d] = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskgroup task_reduction(+: total, leaves, checksum, per_level) task_reduction(max: largest)
        {
#pragma omp target in_reduction(+: checksum) map(to: tree)
            for (int i = 0; i < NODES; i++)
                checksum += tree.value[i] * (i % 7);
#pragma omp task
            walk(0, 0);
        }
        printf("step %d: total %ld largest %ld leaves %d checksum %ld levels", step, total, largest,
               leaves, checksum);
        for (int d = 0; d < LEVELS; d++)
            printf(" %d", per_level[d]);
        printf("\n");
        for (int i = 0; i < NODES; i++)
            tree.value[i] = (tree.value[i] * 3 + step) % 113;
    }

    /* Each thread's own part and the tasks it creates, one reduction. */
    long work = 0;
#pragma omp parallel reduction(task, +: work)
    {
        work += 1000;
#pragma omp task in_reduction(+: work)
        work += 1;
    }
    int threads = 0;
#pragma omp parallel
#pragma omp single
    threads = omp_get_num_threads();
    printf("work per thread: %ld\n", work / threads);
    return 0;
}
