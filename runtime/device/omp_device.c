/* The OpenMP API inside target regions on an NVIDIA GPU (OpenMP 4.5 section 3).
 *
 * Teams are CUDA blocks and threads are CUDA threads: the PTX special
 * registers and the team state (team_state.c) answer the thread and team
 * queries, for every scheme (combined, control loop, serial).
 * Compiled by omp2gpu for the device and linked into each device module
 * before optimisation, so these calls inline.
 */
#include <omp.h>

/* The team state (team_state.c) says whether a parallel region is running, and
 * how deep in serialised (nested) regions this thread is: there it is the only
 * thread of its team, number 0. */
int __kmpc_serialized_depth(void);
static int region_threads(void) { return __omp2gpu_team_state()[0]; }
static int team_level(void) { return __omp2gpu_team_state()[1]; }
static int team_thread_num(void) { return region_threads() > 0 ? __nvvm_read_ptx_sreg_tid_x() : 0; }
static int team_threads(void) { return region_threads() > 0 ? region_threads() : 1; }

int omp_get_thread_num(void) { return __kmpc_serialized_depth() ? 0 : team_thread_num(); }
int omp_get_num_threads(void) { return __kmpc_serialized_depth() ? 1 : team_threads(); }
int omp_get_max_threads(void) { return __nvvm_read_ptx_sreg_ntid_x(); }
int omp_get_team_num(void) { return __nvvm_read_ptx_sreg_ctaid_x(); }
int omp_get_num_teams(void) { return __nvvm_read_ptx_sreg_nctaid_x(); }
int omp_in_parallel(void) { return region_threads() > 1; }
int omp_get_level(void) { return team_level() + __kmpc_serialized_depth(); }
int omp_get_active_level(void) { return region_threads() > 1; }
int omp_get_thread_limit(void) { return __nvvm_read_ptx_sreg_ntid_x(); }
int omp_get_num_procs(void) { return __nvvm_read_ptx_sreg_ntid_x(); }
int omp_is_initial_device(void) { return 0; }
int omp_get_num_devices(void) { return 0; }
int omp_get_dynamic(void) { return 0; }
int omp_get_nested(void) { return 0; }
int omp_get_max_active_levels(void) { return 1; }
int omp_in_final(void) { return 0; }
int omp_get_cancellation(void) { return 0; }
/* Level 0 is the initial thread; levels up to team_level() the team's own region;
 * deeper ones serialised regions, teams of one. */
int omp_get_ancestor_thread_num(int level) {
    if (level < 0 || level > omp_get_level()) return -1;
    if (level == 0) return 0;
    return level <= team_level() ? team_thread_num() : 0;
}
int omp_get_team_size(int level) {
    if (level < 0 || level > omp_get_level()) return -1;
    if (level == 0) return 1;
    return level <= team_level() ? team_threads() : 1;
}

/* Wall-clock time: %globaltimer, a nanosecond count the whole GPU shares. */
double omp_get_wtime(void) { return (double)__nvvm_read_ptx_sreg_globaltimer() * 1e-9; }
double omp_get_wtick(void) { return 1e-9; }
