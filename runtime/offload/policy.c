/* The runtime's rules read from the environment, the same for every device:
 * OMP_TARGET_OFFLOAD, OMP_DEFAULT_DEVICE, OMP2GPU_DEVICES,
 * OMP2GPU_LAUNCH, OMP_NUM_TEAMS, OMP_TEAMS_THREAD_LIMIT, MPI's node-local rank, and the
 * launch shape a kernel gets where its clauses leave it open. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "offload.h"

#define DEFAULT_BLOCK_SIZE 128
#define BLOCKS_PER_MULTIPROCESSOR 128
#define WARP_SIZE 32L

static const char *trimmed(const char *text, char *buffer, size_t size) {
    size_t length;
    while (*text && isspace((unsigned char)*text)) text++;
    length = strlen(text);
    while (length && isspace((unsigned char)text[length - 1])) length--;
    if (length >= size) length = size - 1;
    memcpy(buffer, text, length);
    buffer[length] = 0;
    return buffer;
}

/* OMP_TARGET_OFFLOAD (OpenMP 5.0 6.17) */
enum policy offload_policy(void) {
    char buffer[64];
    const char *text = getenv("OMP_TARGET_OFFLOAD");
    if (!text) return POLICY_DEFAULT;
    trimmed(text, buffer, sizeof buffer);
    if (!buffer[0] || strcasecmp(buffer, "DEFAULT") == 0) return POLICY_DEFAULT;
    if (strcasecmp(buffer, "MANDATORY") == 0) return POLICY_MANDATORY;
    if (strcasecmp(buffer, "DISABLED") == 0) return POLICY_DISABLED;
    for (char *c = buffer; *c; c++) *c = (char)toupper((unsigned char)*c);
    offload_report("warning", "OMP_TARGET_OFFLOAD=%s is not MANDATORY, DISABLED or DEFAULT; using DEFAULT",
                   buffer);
    return POLICY_DEFAULT;
}

static int non_negative(const char *text, long *value) {
    char buffer[64], *end;
    if (!text) return 0;
    trimmed(text, buffer, sizeof buffer);
    if (!buffer[0]) return 0;
    *value = strtol(buffer, &end, 10);
    return *end == 0;
}

/* default-device-var: OMP_DEFAULT_DEVICE, 0 when unset or not an integer, never negative */
int default_device_from_environment(void) {
    long value;
    if (!non_negative(getenv("OMP_DEFAULT_DEVICE"), &value)) return 0;
    return value < 0 ? 0 : (int)value;
}

/* Under MPI, each rank of a node takes its own GPU unless OMP_DEFAULT_DEVICE chooses; -1: no */
int rank_default_device(int gpu_count) {
    static const char *variables[] = {"MPI_LOCALRANKID", "OMPI_COMM_WORLD_LOCAL_RANK",
                                      "MV2_COMM_WORLD_LOCAL_RANK", "PMI_LOCAL_RANK", "SLURM_LOCALID",
                                      "PALS_LOCAL_RANKID"};
    const char *chosen = getenv("OMP_DEFAULT_DEVICE");
    char buffer[64];
    long rank;
    size_t i;
    if (gpu_count < 2 || (chosen && trimmed(chosen, buffer, sizeof buffer)[0])) return -1;
    for (i = 0; i < sizeof variables / sizeof variables[0]; i++)
        if (non_negative(getenv(variables[i]), &rank) && rank >= 0) return (int)(rank % gpu_count);
    return -1;
}

/* OMP2GPU_DEVICES: 'g' GPUs, 'c' the CPU device, in its order; unset, "gpu" then 'f', the
 * CPU device only where no GPU is (as Clang and GCC number devices: the GPUs alone where
 * there are some). Unknown kinds are named once and skipped. */
int device_kinds(char *kinds, int most) {
    const char *text = getenv("OMP2GPU_DEVICES");
    char buffer[256], *part, *rest;
    int count = 0;
    if (!text || !trimmed(text, buffer, sizeof buffer)[0]) {
        kinds[0] = 'g';
        kinds[1] = 'f';
        return 2;
    }
    for (part = strtok_r(buffer, ",", &rest); part && count < most; part = strtok_r(0, ",", &rest)) {
        char word[64];
        trimmed(part, word, sizeof word);
        for (char *c = word; *c; c++) *c = (char)tolower((unsigned char)*c);
        if (!word[0]) continue;
        if (strcmp(word, "gpu") == 0) kinds[count++] = 'g';
        else if (strcmp(word, "cpu") == 0) kinds[count++] = 'c';
        else if (strncmp(word, "remote://", 9) == 0) kinds[count++] = 'r';     /* remote_device.c */
        else offload_report("warning", "OMP2GPU_DEVICES: unknown device kind(s) %s ignored", word);
    }
    return count;
}

/* OMP2GPU_LAUNCH="teams,threads": 1 when set and good */
int launch_override(long *teams, long *threads) {
    static int read, valid;
    static long set_teams, set_threads;
    if (!read) {
        const char *text = getenv("OMP2GPU_LAUNCH");
        char buffer[64], *end;
        read = 1;
        if (text && trimmed(text, buffer, sizeof buffer)[0]) {
            set_teams = strtol(buffer, &end, 10);
            if (*end == ',' && end > buffer) {
                char *second = end + 1;
                set_threads = strtol(second, &end, 10);
                valid = *end == 0 && end > second && set_teams >= 0 && set_threads >= 0;
            }
            if (!valid)
                offload_report("warning", "OMP2GPU_LAUNCH=%s is not 'teams,threads' (two integers >= 0); "
                               "ignored", buffer);
        }
    }
    *teams = set_teams;
    *threads = set_threads;
    return valid;
}

/* The kernel's launch information on the CPU device (its own build's) or a GPU. */
struct launch_info launch_info_for(const struct kernel_desc *kernel, int cpu_device) {
    struct launch_info info;
    if (cpu_device && kernel->cpu_function) {
        info.default_block = kernel->cpu_default_block;
        info.scheme = kernel->cpu_scheme;
        info.one_team = (int)kernel->cpu_one_team;
        info.spreads = 0;
    } else {
        info.default_block = kernel->default_block;
        info.scheme = kernel->scheme;
        info.one_team = kernel->one_team;
        info.spreads = kernel->spreads;
    }
    return info;
}

/* OMP_NUM_TEAMS, OMP_TEAMS_THREAD_LIMIT (OpenMP 5.1's nteams-var, teams-thread-limit-var):
 * the most teams, and threads a team, of a teams construct without num_teams or
 * thread_limit clauses; 0 when unset or not a positive integer (a warning names it). */
long teams_environment(int threads) {
    static int read;
    static long teams_bound, threads_bound;
    if (!read) {
        static const char *names[2] = {"OMP_NUM_TEAMS", "OMP_TEAMS_THREAD_LIMIT"};
        long *bounds[2] = {&teams_bound, &threads_bound};
        int i;
        read = 1;
        for (i = 0; i < 2; i++) {
            const char *text = getenv(names[i]);
            long value;
            char buffer[64];
            if (!text || !trimmed(text, buffer, sizeof buffer)[0]) continue;
            if (non_negative(text, &value) && value > 0) *bounds[i] = value;
            else offload_report("warning", "%s=%s is not a positive integer; ignored", names[i], buffer);
        }
    }
    return threads ? threads_bound : teams_bound;
}

/* A grid-stride kernel (the combined and SPMDized schemes) whose loop is too short to give
 * every multiprocessor a block of the default size: blocks just wide enough (whole warps)
 * that the loop's iterations reach every multiprocessor. 1,000 iterations on an H200's 132
 * SMs were 2 blocks of 512 threads on 2 SMs (each warp's loads queued behind 15 others in
 * one SM's pipelines); they are 32 blocks of 32 threads, the shape Clang 19 launches. Not a
 * kernel that folds a reduction across its teams (kernel_desc.spreads): more teams are more
 * partial results to fold. */
static long spread_block(long block, long trip_count, long multiprocessors) {
    long per_multiprocessor, spread;
    if (multiprocessors < 2 || trip_count <= 0 || trip_count >= block * multiprocessors) return block;
    per_multiprocessor = (trip_count + multiprocessors - 1) / multiprocessors;
    spread = (per_multiprocessor + WARP_SIZE - 1) / WARP_SIZE * WARP_SIZE;
    return spread < block ? spread : block;
}

/* (grid, block): the clauses when given, else the kernel's default block and enough
 * blocks for the loop, capped at what fills the device (policy.launch_configuration);
 * a region with no teams construct is one team (as the native launch path's mirror.c).
 * A negative trip count: the teams take the loop's iterations one each (a distribute
 * whose iterations the team's threads do not share), so a team per iteration. */
void launch_configuration(struct launch_info info, long max_threads, long multiprocessors,
                          long num_teams, long thread_limit, long trip_count, long *grid, long *block) {
    long teams, threads, cap;
    /* a serial kernel (the GPU's one thread, the CPU device's one work-item) stays one */
    if (launch_override(&teams, &threads) && info.scheme != SCHEME_GPU_SERIAL && info.scheme != SCHEME_CPU_SEQUENTIAL) {
        if (!info.one_team && teams) num_teams = teams;
        if (threads) thread_limit = threads;
    }
    *block = thread_limit > 0 ? thread_limit : (info.default_block > 0 ? info.default_block : DEFAULT_BLOCK_SIZE);
    if (thread_limit <= 0 && teams_environment(1) && *block > teams_environment(1)) *block = teams_environment(1);
    if (*block > max_threads) *block = max_threads;
    if (*block < 1) *block = 1;
    if (thread_limit <= 0 && num_teams <= 0 && !teams_environment(1) && !info.one_team && info.spreads)
        *block = spread_block(*block, trip_count, multiprocessors);
    if (num_teams > 0) {
        *grid = num_teams;
    } else {
        cap = (multiprocessors > 1 ? multiprocessors : 1) * BLOCKS_PER_MULTIPROCESSOR;
        *grid = trip_count > 0 ? (trip_count + *block - 1) / *block : -trip_count;
        if (*grid > cap) *grid = cap;
        if (teams_environment(0) && *grid > teams_environment(0)) *grid = teams_environment(0);
        if (*grid < 1) *grid = 1;
    }
    if (info.one_team) *grid = 1;
}

/* OMP2GPU_WIDE_TWINS=0: kernels always run as compiled for full occupancy. */
int wide_twins_enabled(void) {
    static int enabled = -1;
    if (enabled < 0) {
        const char *text = getenv("OMP2GPU_WIDE_TWINS");
        char buffer[16];
        enabled = !(text && strcmp(trimmed(text, buffer, sizeof buffer), "0") == 0);
    }
    return enabled;
}

#define REGISTERS_PER_MULTIPROCESSOR 65536L    /* sm_50 to sm_120, in four sub-partitions */
#define SUB_PARTITIONS 4L
#define REGISTER_UNIT 256L                     /* a warp's registers are allocated in these */

/* Blocks of `block` threads that one multiprocessor's registers hold for a kernel of
 * `registers` a thread: 0 where either is unknown. A warp takes its registers from one
 * sub-partition's file (omp2gpu/tools/occupancy.py counts the same). */
long blocks_by_registers(long block, int registers) {
    long warps, warp_registers;
    if (registers < 1 || block < 1) return 0;
    warps = (block + WARP_SIZE - 1) / WARP_SIZE;
    warp_registers = ((long)registers * WARP_SIZE + REGISTER_UNIT - 1) / REGISTER_UNIT * REGISTER_UNIT;
    return REGISTERS_PER_MULTIPROCESSOR / SUB_PARTITIONS / warp_registers * SUB_PARTITIONS / warps;
}

/* A grid too small to fill the device gives each multiprocessor ceil(grid / SMs) blocks at
 * most; a twin whose registers leave room for those costs no occupancy. */
int wide_twin_fits(long grid, long block, long multiprocessors, int registers) {
    if (multiprocessors < 1 || registers < 1 || grid < 1 || block < 1) return 0;
    return (grid + multiprocessors - 1) / multiprocessors <= blocks_by_registers(block, registers);
}

#define RESIDENT_BLOCKS_MOST 32L /* sm_70, sm_80, sm_90 (occupancy.py max_blocks; sm_75, sm_86, sm_89: 16) */

/* Blocks of `block` threads a multiprocessor runs at once, by its threads, its 32 block
 * slots and the registers of a kernel with `registers` a thread (unknown: not by those). */
long resident_blocks(const struct device *d, long block, int registers) {
    long threads = d->threads_per_multiprocessor > 0 ? d->threads_per_multiprocessor : 2048;
    long most = block > 0 ? threads / block : 1, by_registers = blocks_by_registers(block, registers);
    if (most > RESIDENT_BLOCKS_MOST) most = RESIDENT_BLOCKS_MOST;
    return registers > 0 && by_registers < most ? by_registers : most;
}

/* One wave: as many blocks of `block` threads as the multiprocessors hold at once by their
 * thread count (2,048 each on sm_80 and sm_90 where the driver does not say); registers or
 * shared memory may hold fewer, so a wave is at least this many blocks' work. */
long device_wave_blocks(const struct device *d, long block) {
    long threads = d->threads_per_multiprocessor > 0 ? d->threads_per_multiprocessor : 2048;
    long per_multiprocessor = block > 0 ? threads / block : 1;
    return (per_multiprocessor > 0 ? per_multiprocessor : 1) * (d->multiprocessors > 0 ? d->multiprocessors : 1);
}

/* OMP2GPU_FUSE_LAUNCHES (fused_launches.c; cuda_device.c budgets the fused kernel only
 * where fusion is on): "0" off; "wait": a batch waits for the thread's next wait or other
 * work on the device; otherwise adaptive (the default): also launched as soon as nothing
 * of the thread's runs on the device */
int fusion_policy(void) {
    static int policy = -1;
    if (policy < 0) {
        const char *value = getenv("OMP2GPU_FUSE_LAUNCHES");
        policy = value && strcmp(value, "0") == 0      ? FUSE_OFF
                 : value && strcmp(value, "wait") == 0 ? FUSE_AT_WAITS
                                                       : FUSE_ADAPTIVE;
    }
    return policy;
}
