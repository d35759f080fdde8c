/* The lock API as a shared data structure uses it: a hash table with one simple lock
 * per bucket (omp_set_lock / omp_unset_lock), omp_test_lock failing while another thread
 * holds the lock, and a nested lock taken again by a recursive function on the
 * same thread (omp_set_nest_lock counts, omp_test_nest_lock returns the depth). */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define BUCKETS 16
#define KEYS 3000

struct entry {
    int key;
    struct entry *next;
};

struct table {
    omp_lock_t lock[BUCKETS];
    struct entry *bucket[BUCKETS];
    int size[BUCKETS];
};

static struct table t;
static omp_nest_lock_t tree_lock;
static long tree_visits = 0;

static void insert(struct entry *e)
{
    int b = e->key % BUCKETS;
    omp_set_lock(&t.lock[b]);
    e->next = t.bucket[b];
    t.bucket[b] = e;
    t.size[b]++;
    omp_unset_lock(&t.lock[b]);
}

/* a recursive walk that holds the nested lock at every level it passes */
static int descend(int depth)
{
    int deepest;
    omp_set_nest_lock(&tree_lock);
    tree_visits++;
    deepest = depth == 0 ? omp_test_nest_lock(&tree_lock) : descend(depth - 1);
    if (depth == 0)
        omp_unset_nest_lock(&tree_lock);     /* the test above took it once more */
    omp_unset_nest_lock(&tree_lock);
    return deepest;
}

int main(void)
{
    struct entry *pool = malloc(KEYS * sizeof *pool);
    int depth_ok = 0, walks = 0;

    for (int b = 0; b < BUCKETS; b++)
        omp_init_lock(&t.lock[b]);
    omp_init_nest_lock(&tree_lock);

#pragma omp parallel for schedule(dynamic, 16)
    for (int k = 0; k < KEYS; k++) {
        pool[k].key = (k * 7) % 1009 + k / 1009 * 1009;
        insert(&pool[k]);
    }

    /* omp_test_lock fails on a lock another thread holds: thread 0 holds it until thread 1
     * has seen it busy (with a team of one, the lock is simply free) */
    int phase = 0, busy_seen = -1, free_seen = -1;
    omp_lock_t gate;
    omp_init_lock(&gate);
#pragma omp parallel num_threads(2) shared(phase, busy_seen, free_seen)
    {
        int me = omp_get_thread_num(), pairs = omp_get_num_threads() > 1;
        int now;
        if (me == 0) {
            omp_set_lock(&gate);
#pragma omp atomic write
            phase = 1;
            if (pairs)
                do {
#pragma omp atomic read
                    now = phase;
                } while (now != 2);
            omp_unset_lock(&gate);
        }
        if (me == 1 || !pairs) {
            if (pairs)
                do {
#pragma omp atomic read
                    now = phase;
                } while (now != 1);
            busy_seen = pairs ? !omp_test_lock(&gate) : 1;
#pragma omp atomic write
            phase = 2;
        }
#pragma omp barrier
#pragma omp single
        {
            free_seen = omp_test_lock(&gate);
            omp_unset_lock(&gate);
        }
    }
    omp_destroy_lock(&gate);

#pragma omp parallel for reduction(+:depth_ok, walks)
    for (int w = 0; w < 40; w++) {
        depth_ok += descend(w % 6) == (w % 6) + 2;
        walks++;
    }

    int total = 0, keys_ok = 1;
    for (int b = 0; b < BUCKETS; b++) {
        total += t.size[b];
        for (struct entry *e = t.bucket[b]; e != NULL; e = e->next)
            keys_ok = keys_ok && e->key % BUCKETS == b;
        omp_destroy_lock(&t.lock[b]);
    }
    omp_destroy_nest_lock(&tree_lock);
    printf("entries %d (all inserted), keys in their buckets %d\n", total, keys_ok);
    printf("test_lock: busy while held %d, free after %d\n", busy_seen, free_seen);
    printf("nested lock depth right in %d of %d walks, %ld visits\n", depth_ok, walks, tree_visits);
    free(pool);
    return 0;
}
