/* The CPU device's worker pool: work-groups (OpenMP teams) over native threads.
 *
 * A target region compiled for the CPU is a work-group function
 *     void wg(void **args, long group, long num_groups, int threads)
 * (omp2gpu/codegen/openmp/cpu/workgroup.py). One launch runs it for groups
 * 0 .. num_groups-1, spread over `workers` threads: the launching thread is
 * worker 0 and workers 1.. are pthreads made once, kept alive between
 * launches; they spin a little after each launch, then sleep on a condition
 * variable. Scheduling policies (the PoCL paper's comparison, Section 6):
 *   static   no chunk: worker w gets one contiguous block, sizes differing by
 *            at most one (so every worker has work when groups >= workers);
 *            chunk c: blocks of c groups dealt round-robin
 *   dynamic  a shared counter hands out c groups at a time (c default 1)
 *   guided   ceil(remaining / workers) groups at a time, at least c
 *   steal    each worker starts with its static block and takes c at a time
 *            from its front; an idle worker steals half of another's rest
 *            (never its last group, so every worker runs one at least)
 * The per-worker team state (team number, team size, nesting level) is what
 * the kernels' omp_* functions read (omp_device.c), through
 * __omp2gpu_cpu_team(), a thread-specific pointer (MCJIT has no TLS).
 * Compiled by omp2gpu itself, with the __atomic_* builtins, and JIT-compiled
 * once per process.
 */
#include <pthread.h>
#include <string.h>

typedef void (*omp2gpu_wg_fn)(void **args, long group, long num_groups, int threads);

#define MAX_WORKERS 256
#define TEAM_WORDS 32            /* 128 bytes per worker: no false sharing */
#define LINE_LONGS 16

enum { TEAM_NUM = 0, NUM_TEAMS = 1, THREAD_NUM = 2, NUM_THREADS = 3, LEVEL = 4 };
enum { POLICY_STATIC = 0, POLICY_DYNAMIC = 1, POLICY_GUIDED = 2, POLICY_STEAL = 3 };

static int teams[MAX_WORKERS][TEAM_WORDS];
static unsigned long ranges[MAX_WORKERS][LINE_LONGS];  /* steal: (first << 32) | end */

static int workers = 1;
static int started;
static long spin_limit = 20000;
static pthread_t threads[MAX_WORKERS];
static pthread_key_t team_key;
static pthread_mutex_t lock;
/* One job at a time: host threads (an OpenMP parallel region) may launch at once. */
static pthread_mutex_t run_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake;

/* The current launch, written by worker 0 before it bumps `generation`. */
static long generation;
static long sleepers;
static long finished;
static long next_group[LINE_LONGS];
static omp2gpu_wg_fn job_fn;
static void **job_args;
static long job_groups;
static int job_threads;
static int job_policy;
static long job_chunk;
static int job_workers;

int *__omp2gpu_cpu_team(void) { return (int *)pthread_getspecific(team_key); }
int __omp2gpu_cpu_workers(void) { return workers; }

static void run_groups(int id, long first, long end) {
    int *team = teams[id];
    long group;
    for (group = first; group < end; group++) {
        team[TEAM_NUM] = (int)group;
        team[NUM_TEAMS] = (int)job_groups;
        team[THREAD_NUM] = 0;
        team[NUM_THREADS] = job_threads;
        team[LEVEL] = 0;
        job_fn(job_args, group, job_groups, job_threads);
    }
}

/* Worker w's block of a balanced split of `total` into `parts`. */
static long block_start(long total, long parts, long w) {
    long q = total / parts, r = total % parts;
    return w * q + (w < r ? w : r);
}

static unsigned long pack(long first, long end) {
    return ((unsigned long)first << 32) | (unsigned long)end;
}

static void run_static(int id) {
    long chunk = job_chunk, start;
    if (chunk <= 0) {
        run_groups(id, block_start(job_groups, job_workers, id),
                   block_start(job_groups, job_workers, id + 1));
        return;
    }
    for (start = (long)id * chunk; start < job_groups; start += (long)job_workers * chunk)
        run_groups(id, start, start + chunk < job_groups ? start + chunk : job_groups);
}

static void run_dynamic(int id) {
    long chunk = job_chunk > 0 ? job_chunk : 1;
    for (;;) {
        long start = __atomic_fetch_add(&next_group[0], chunk, __ATOMIC_RELAXED);
        if (start >= job_groups) return;
        run_groups(id, start, start + chunk < job_groups ? start + chunk : job_groups);
    }
}

static void run_guided(int id) {
    long least = job_chunk > 0 ? job_chunk : 1;
    for (;;) {
        long start = __atomic_load_n(&next_group[0], __ATOMIC_RELAXED), count;
        do {
            if (start >= job_groups) return;
            count = (job_groups - start + job_workers - 1) / job_workers;   /* ceil: no starving */
            if (count < least) count = least;
            if (count > job_groups - start) count = job_groups - start;
        } while (!__atomic_compare_exchange_n(&next_group[0], &start, start + count, 0,
                                              __ATOMIC_RELAXED, __ATOMIC_RELAXED));
        run_groups(id, start, start + count);
    }
}

static void run_stealing(int id) {
    long chunk = job_chunk > 0 ? job_chunk : 1;
    for (;;) {
        int k, stolen = 0;
        for (;;) {                              /* own range, from the front */
            unsigned long range = __atomic_load_n(&ranges[id][0], __ATOMIC_ACQUIRE);
            long first = (long)(range >> 32), end = (long)(range & 0xffffffffUL), take;
            if (first >= end) break;
            take = end - first < chunk ? end - first : chunk;
            if (__atomic_compare_exchange_n(&ranges[id][0], &range, pack(first + take, end), 0,
                                            __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
                run_groups(id, first, first + take);
        }
        for (k = 1; k < job_workers && !stolen; k++) {   /* then half of another's rest, from the back */
            int victim = (id + k) % job_workers;
            unsigned long range = __atomic_load_n(&ranges[victim][0], __ATOMIC_ACQUIRE);
            for (;;) {
                long first = (long)(range >> 32), end = (long)(range & 0xffffffffUL), half;
                if (end - first < 2) break;     /* the owner keeps its last group */
                half = (end - first) / 2;
                if (__atomic_compare_exchange_n(&ranges[victim][0], &range, pack(first, end - half), 0,
                                                __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
                    __atomic_store_n(&ranges[id][0], pack(end - half, end), __ATOMIC_RELEASE);
                    stolen = 1;
                    break;
                }
            }
        }
        if (!stolen) return;
    }
}

static void run_share(int id) {
    if (id >= job_workers) return;
    if (job_policy == POLICY_DYNAMIC) run_dynamic(id);
    else if (job_policy == POLICY_GUIDED) run_guided(id);
    else if (job_policy == POLICY_STEAL) run_stealing(id);
    else run_static(id);
}

static long wait_for_launch(long seen) {
    long now, spins;
    for (spins = 0; spins < spin_limit; spins++) {
        now = __atomic_load_n(&generation, __ATOMIC_ACQUIRE);
        if (now != seen) return now;
        __builtin_ia32_pause();
        if ((spins & 255) == 255) sched_yield();     /* more workers than cores */
    }
    pthread_mutex_lock(&lock);
    __atomic_fetch_add(&sleepers, 1, __ATOMIC_SEQ_CST);
    while ((now = __atomic_load_n(&generation, __ATOMIC_SEQ_CST)) == seen)
        pthread_cond_wait(&wake, &lock);
    __atomic_fetch_sub(&sleepers, 1, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&lock);
    return now;
}

static void *worker_main(void *argument) {
    int id = (int)(long)argument;
    long seen = 0;
    pthread_setspecific(team_key, teams[id]);
    for (;;) {
        seen = wait_for_launch(seen);
        run_share(id);
        __atomic_fetch_add(&finished, 1, __ATOMIC_RELEASE);
    }
    return (void *)0;
}

/* Make the pool: `count` workers in all (the caller is worker 0). 0 on success. */
int __omp2gpu_cpu_pool_start(int count, long spin) {
    int id;
    if (started) return 0;
    if (count < 1) count = 1;
    if (count > MAX_WORKERS) count = MAX_WORKERS;
    if (spin >= 0) spin_limit = spin;
    if (pthread_key_create(&team_key, (void (*)(void *))0) != 0) return -1;
    pthread_mutex_init(&lock, (pthread_mutexattr_t *)0);
    pthread_cond_init(&wake, (pthread_condattr_t *)0);
    workers = 1;
    for (id = 1; id < count; id++) {
        if (pthread_create(&threads[id], (pthread_attr_t *)0, worker_main, (void *)(long)id) != 0)
            break;
        workers = id + 1;
    }
    started = 1;
    return 0;
}

/* Run groups 0 .. num_groups-1 of `fn`; returns when all have run. */
void __omp2gpu_cpu_run(omp2gpu_wg_fn fn, void **args, long num_groups, int threads_per_group,
                       int policy, long chunk) {
    long helpers, id, spins = 0;
    pthread_mutex_lock(&run_lock);
    pthread_setspecific(team_key, teams[0]);
    job_fn = fn;
    job_args = args;
    job_groups = num_groups;
    job_threads = threads_per_group;
    job_policy = policy;
    job_chunk = chunk;
    job_workers = num_groups < workers ? (int)num_groups : workers;
    if (job_workers < 1) job_workers = 1;
    if (job_workers == 1) {                  /* one group (serial regions): no hand-over */
        run_groups(0, 0, num_groups);
        pthread_mutex_unlock(&run_lock);
        return;
    }
    helpers = workers - 1;
    next_group[0] = 0;
    if (policy == POLICY_STEAL)
        for (id = 0; id < job_workers; id++)
            ranges[id][0] = pack(block_start(num_groups, job_workers, id),
                                 block_start(num_groups, job_workers, id + 1));
    __atomic_store_n(&finished, 0, __ATOMIC_RELAXED);
    __atomic_fetch_add(&generation, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&sleepers, __ATOMIC_SEQ_CST) > 0) {
        pthread_mutex_lock(&lock);
        pthread_cond_broadcast(&wake);
        pthread_mutex_unlock(&lock);
    }
    run_share(0);
    while (__atomic_load_n(&finished, __ATOMIC_ACQUIRE) < helpers) {
        __builtin_ia32_pause();
        if ((++spins & 255) == 0) sched_yield();
    }
    pthread_mutex_unlock(&run_lock);
}

/* Large copies between host and device buffers, split over the workers (one memcpy
 * saturates neither the memory system nor the page-fault path of fresh buffers). */
static void copy_group(void **args, long group, long num_groups, int threads) {
    char *dst = (char *)args[0];
    const char *src = (const char *)args[1];
    long bytes = (long)args[2];
    long first = block_start(bytes, num_groups, group), end = block_start(bytes, num_groups, group + 1);
    (void)threads;
    memcpy(dst + first, src + first, (size_t)(end - first));
}

void __omp2gpu_cpu_copy(void *dst, const void *src, long bytes, long piece) {
    void *args[3];
    long groups = piece > 0 ? bytes / piece : 1;
    if (groups > workers) groups = workers;
    if (groups <= 1) {
        memcpy(dst, src, (size_t)bytes);
        return;
    }
    args[0] = dst;
    args[1] = (void *)src;
    args[2] = (void *)bytes;
    __omp2gpu_cpu_run(copy_group, args, groups, 1, POLICY_STATIC, 0);
}
