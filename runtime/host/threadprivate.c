/* Threadprivate storage (OpenMP 4.5 2.15.2) on the host's OpenMP runtime threads.
 *
 * GCC puts threadprivate variables in thread-local storage; the JIT that runs
 * omp2gpu's host code cannot allocate TLS, so each access asks here for the
 * calling thread's copy (once per function, host_threads.py). The initial thread's
 * copy is the variable itself; any other thread's is made on its first access,
 * initialised from the variable's initial image, and kept for the thread's life
 * (a pthread key per variable; the OpenMP runtime keeps its threads between
 * parallel regions, so values persist as OpenMP 4.5 2.15.2 describes).
 * Compiled by omp2gpu itself and linked into every host module.
 */
#include <omp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    volatile int made;           /* the key exists (written after it, under keys_lock) */
    pthread_key_t key;
} __omp2gpu_threadprivate_key;

static pthread_mutex_t keys_lock = PTHREAD_MUTEX_INITIALIZER;

/* The initial thread: the master of every enclosing team. */
static int on_initial_thread(void) {
    for (int level = omp_get_level(); level > 0; level--)
        if (omp_get_ancestor_thread_num(level) != 0)
            return 0;
    return 1;
}

/* Made once per variable; x86-64 keeps the key's store before `made`'s. */
static pthread_key_t key_of(__omp2gpu_threadprivate_key *slot) {
    if (!slot->made) {
        pthread_mutex_lock(&keys_lock);
        if (!slot->made) {
            pthread_key_create(&slot->key, free);
            slot->made = 1;
        }
        pthread_mutex_unlock(&keys_lock);
    }
    return slot->key;
}

void *__omp2gpu_threadprivate(void *original, const void *initial, unsigned long size,
                              __omp2gpu_threadprivate_key *slot) {
    if (on_initial_thread())
        return original;
    pthread_key_t key = key_of(slot);
    void *copy = pthread_getspecific(key);
    if (copy == NULL) {
        copy = calloc(1, size ? size : 1);
        if (initial != NULL)
            memcpy(copy, initial, size);
        pthread_setspecific(key, copy);
    }
    return copy;
}
