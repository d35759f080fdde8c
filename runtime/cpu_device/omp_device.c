/* The OpenMP API inside target regions on the CPU device (OpenMP 4.5 section 3).
 *
 * Teams are work-groups and their threads work-items (pool.c): the worker
 * running a work-group keeps its team state, which these functions read
 * through __omp2gpu_cpu_team(); the work-group function updates the thread
 * number and nesting level as it runs work-items and parallel regions.
 * Compiled by omp2gpu for the host and linked into each CPU device module,
 * where calls to them inline; the answers are a device's
 * (omp_is_initial_device() is 0).
 */
#include <omp.h>
#include <time.h>

#define TEAM_NUM 0
#define NUM_TEAMS 1
#define THREAD_NUM 2
#define NUM_THREADS 3
#define LEVEL 4

int *__omp2gpu_cpu_team(void);
int __omp2gpu_cpu_workers(void);

/* Sequential code of a region (level 0) is run by the team's initial thread alone. */
int omp_get_thread_num(void) {
    int *team = __omp2gpu_cpu_team();
    return team[LEVEL] > 0 ? team[THREAD_NUM] : 0;
}
int omp_get_num_threads(void) {
    int *team = __omp2gpu_cpu_team();
    return team[LEVEL] > 0 ? team[NUM_THREADS] : 1;
}
int omp_get_max_threads(void) { return __omp2gpu_cpu_team()[NUM_THREADS]; }
int omp_get_team_num(void) { return __omp2gpu_cpu_team()[TEAM_NUM]; }
int omp_get_num_teams(void) { return __omp2gpu_cpu_team()[NUM_TEAMS]; }
int omp_get_level(void) { return __omp2gpu_cpu_team()[LEVEL]; }
static int active_levels(void);
/* Inside an active region, or a region (serialised) nested in one. */
int omp_in_parallel(void) { return active_levels() > 0; }
int omp_get_active_level(void) { return active_levels(); }
int omp_get_thread_limit(void) { return __omp2gpu_cpu_team()[NUM_THREADS]; }
int omp_get_num_procs(void) { return __omp2gpu_cpu_workers(); }
int omp_is_initial_device(void) { return 0; }
int omp_get_num_devices(void) { return 0; }
int omp_get_dynamic(void) { return 0; }
int omp_get_nested(void) { return 0; }
int omp_get_max_active_levels(void) { return 1; }
int omp_get_cancellation(void) { return 0; }
int omp_in_final(void) { return 0; }
/* The setters and the readers of settings: the same on the GPU */
#include "../device/omp_settings.c"
/* The `error` directive at(execution): a message on stderr, as on the host */
#include "../host/error_directive.c"

/* Locks: work-items of a team run one after another on one worker, but teams run
 * at once on several, so a lock is a real spin lock. */
void omp_init_lock(omp_lock_t *lock) { __atomic_store_n(&lock->_x, 0, 5); }
void omp_destroy_lock(omp_lock_t *lock) { __atomic_store_n(&lock->_x, 0, 5); }
void omp_set_lock(omp_lock_t *lock) {
    unsigned int expected = 0;
    while (!__atomic_compare_exchange_n(&lock->_x, &expected, 1, 0, 2, 0)) {
        expected = 0;
        __builtin_ia32_pause();
    }
}
void omp_unset_lock(omp_lock_t *lock) { __atomic_store_n(&lock->_x, 0, 3); }
int omp_test_lock(omp_lock_t *lock) {
    unsigned int expected = 0;
    return __atomic_compare_exchange_n(&lock->_x, &expected, 1, 0, 2, 0);
}
void omp_init_lock_with_hint(omp_lock_t *lock, omp_lock_hint_t hint) {
    (void)hint;
    omp_init_lock(lock);
}
/* A nestable lock's owner: the work-item, its team's state (one per running team)
 * and its thread number (a user-space address has 48 bits, a team < 65536 threads). */
long __omp2gpu_nest_lock_self(void) { return ((long)__omp2gpu_cpu_team() << 16) | omp_get_thread_num(); }
#include "../device/nest_locks.c"

double omp_get_wtime(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}
double omp_get_wtick(void) { return 1e-9; }

/* The host scheme's nesting calls, as the CPU schemes emit them for a parallel region
 * run by one thread (a sequential region's, or one nested in a work-item): a team of
 * one, the enclosing team's size and thread number kept in the team state's spare
 * words (pool.c gives each worker 32) until the region ends. */
#define SAVED 8
#define MAX_SAVED 8
void __omp2gpu_host_parallel_begin(void) {
    int *team = __omp2gpu_cpu_team();
    int depth = team[LEVEL];
    if (depth >= 0 && depth < MAX_SAVED) {
        team[SAVED + 2 * depth] = team[NUM_THREADS];
        team[SAVED + 2 * depth + 1] = team[THREAD_NUM];
    }
    team[LEVEL] = depth + 1;
    team[NUM_THREADS] = 1;
    team[THREAD_NUM] = 0;
}
void __omp2gpu_host_parallel_end(void) {
    int *team = __omp2gpu_cpu_team();
    int depth = team[LEVEL] - 1;
    team[LEVEL] = depth;
    if (depth >= 0 && depth < MAX_SAVED) {
        team[NUM_THREADS] = team[SAVED + 2 * depth];
        team[THREAD_NUM] = team[SAVED + 2 * depth + 1];
    }
}

/* An enclosing level's thread number and team size: what __omp2gpu_host_parallel_begin
 * saved on entering the level below it; levels past those saved are nested in a
 * nested region, so teams of one. */
int omp_get_ancestor_thread_num(int level) {
    int current = omp_get_level();
    if (level < 0 || level > current) return -1;
    if (level == 0) return 0;
    if (level == current) return omp_get_thread_num();
    return level < MAX_SAVED ? __omp2gpu_cpu_team()[SAVED + 2 * level + 1] : 0;
}
int omp_get_team_size(int level) {
    int current = omp_get_level();
    if (level < 0 || level > current) return -1;
    if (level == 0) return 1;
    if (level == current) return omp_get_num_threads();
    return level < MAX_SAVED ? __omp2gpu_cpu_team()[SAVED + 2 * level] : 1;
}
/* Enclosing levels run by more than one thread. */
static int active_levels(void) {
    int active = 0, level;
    for (level = omp_get_level(); level >= 1; level--)
        active += omp_get_team_size(level) > 1;
    return active;
}

/* OpenMP 5.0/5.1 allocators: the host's, on the process's heap, with one default
 * allocator for the device (its ICV). */
#define OMP2GPU_ALLOCATORS_ON_DEVICE
#include "../host/omp_allocators.c"
