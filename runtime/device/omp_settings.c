/* The OpenMP 4.5 routines that set or read a setting, inside target regions on a
 * device: a kernel's launch shape is fixed when it starts, so the setters change
 * nothing. Compiled for an NVIDIA GPU as it is, and for the CPU device included in
 * its runtime (runtime/cpu_device/omp_device.c), so both devices answer alike.
 */
#include <omp.h>

void omp_set_num_threads(int num_threads) { (void)num_threads; }
void omp_set_dynamic(int dynamic_threads) { (void)dynamic_threads; }
void omp_set_nested(int nested) { (void)nested; }
void omp_set_max_active_levels(int max_levels) { (void)max_levels; }
void omp_set_schedule(omp_sched_t kind, int chunk_size) { (void)kind; (void)chunk_size; }
void omp_get_schedule(omp_sched_t *kind, int *chunk_size) {
    *kind = omp_sched_static;
    *chunk_size = 0;
}
void omp_set_default_device(int device_num) { (void)device_num; }
int omp_get_default_device(void) { return 0; }
/* OpenMP 5.1: the host's device number, omp_get_num_devices() on the host, which the
 * native runtime writes when it loads the module (runtime/offload/images.c); -1 until it does. */
int __omp2gpu_initial_device = -1;
int omp_get_initial_device(void) { return __omp2gpu_initial_device; }
int omp_get_max_task_priority(void) { return 0; }
omp_proc_bind_t omp_get_proc_bind(void) { return omp_proc_bind_false; }

/* Places (OMP_PLACES) bind the host's threads: a device's threads have none. */
int omp_get_num_places(void) { return 0; }
int omp_get_place_num_procs(int place_num) { (void)place_num; return 0; }
void omp_get_place_proc_ids(int place_num, int *ids) { (void)place_num; (void)ids; }
int omp_get_place_num(void) { return -1; }
int omp_get_partition_num_places(void) { return 0; }
void omp_get_partition_place_nums(int *place_nums) { (void)place_nums; }

/* OpenMP 5.0/5.1 (issue 26). The launcher writes the device's number into
 * __omp2gpu_device_num when it loads the module onto it (offload/images.py). */
int __omp2gpu_device_num = -1;
int omp_get_device_num(void) { return __omp2gpu_device_num; }
int omp_get_supported_active_levels(void) { return 1; }
/* nteams-var and teams-thread-limit-var are the host's: a device reports them unset. */
void omp_set_num_teams(int num_teams) { (void)num_teams; }
int omp_get_max_teams(void) { return 0; }
void omp_set_teams_thread_limit(int thread_limit) { (void)thread_limit; }
int omp_get_teams_thread_limit(void) { return 0; }
/* A device's threads have no places, so no affinity to format: the routines answer with
 * an empty string (and keep the host's affinity-format-var, which they do not see). */
void omp_set_affinity_format(const char *format) { (void)format; }
size_t omp_get_affinity_format(char *buffer, size_t size) {
    if (buffer && size > 0) buffer[0] = 0;
    return 0;
}
void omp_display_affinity(const char *format) { (void)format; }
size_t omp_capture_affinity(char *buffer, size_t size, const char *format) {
    (void)format;
    return omp_get_affinity_format(buffer, size);
}
/* A device's resources stay until the program ends; pausing is the host's business. */
int omp_pause_resource(omp_pause_resource_t kind, int device_num) { (void)kind; (void)device_num; return 0; }
int omp_pause_resource_all(omp_pause_resource_t kind) { (void)kind; return 0; }
int printf(const char *format, ...);
/* The ICVs a device has of its own, as libgomp's host display spells them. */
void omp_display_env(int verbose) {
    (void)verbose;
    printf("OPENMP DISPLAY ENVIRONMENT BEGIN\n  [device %d] OMP_DYNAMIC = 'FALSE'\n"
           "  [device %d] OMP_MAX_ACTIVE_LEVELS = '1'\nOPENMP DISPLAY ENVIRONMENT END\n",
           __omp2gpu_device_num, __omp2gpu_device_num);
}
