/* Fused launches (docs/async.md, "Fused launches"): consecutive target tasks that run
 * ahead (run_ahead.c: `nowait`, no `depend`, met in sequential code) are independent by
 * OpenMP's rules: nothing orders one's kernel before another's until the thread's next
 * wait. Instead of launching each, target_tasks.c hands their launches here while they
 * can be fused: the same device, image and block size, a kernel the image's fused kernel
 * runs (kernel_desc.fused_slot >= 0: a body that cannot read the grid, omp2gpu/targets/
 * nvptx/fusion.py), room in the descriptor, a fused kernel whose registers cost the launch
 * no occupancy (occupancy_kept). A launch joins the calling thread's batch
 * while the thread has a kernel running on the device (adaptive, the default): one that
 * finds nothing of the thread's running is launched at once with the batch, so the device
 * is not left idle while the host prepares the next launches, and the launches made while
 * a kernel runs go as one. OMP2GPU_FUSE_LAUNCHES=wait holds every launch until one of the
 * other reasons below. Under either, a batch whose blocks fill the device once over
 * (device_wave_blocks: the multiprocessors' resident threads) goes at once: the device
 * starts on it while the host makes the next launches, a batch of their own. The batch is
 * launched as
 *   - one launch of the fused kernel, FUSED_KERNEL, whose grid is the launches' grids one
 *     after another and whose one parameter says which blocks run which part, with the
 *     parts' arguments (their values copied here: the caller's may not outlive it), or
 *   - the one kernel it holds, as it would have been launched;
 * on a stream, its event in the thread's run-ahead ring, when
 *   - a launch that cannot join it comes (another device, image or block size, a full
 *     descriptor, any launch not fused),
 *   - the thread waits for its run-ahead kernels (run_ahead_wait: its taskwait, barrier,
 *     taskgroup end..., its end, the program's end: run_ahead_hold_launches' hook),
 *   - the thread does anything else on that device (cuda_device.c calls the device's
 *     before_work hook, set here, at the top of each copy, free and launch), so no copy,
 *     free or launch of its own overtakes the kernels it made before.
 * A fused launch the driver refuses is made again as its parts, one by one.
 * OMP2GPU_FUSE_LAUNCHES=0 turns fusion off. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "offload.h"
#include "remote.h"

#define DESCRIPTOR_WORDS 512             /* fusion.py DESCRIPTOR_WORDS: the kernel's 4096-byte parameter */
#define ARGUMENTS_AT (1 + FUSED_MAX_PARTS)
#define ARGUMENT_WORDS (DESCRIPTOR_WORDS - ARGUMENTS_AT)

struct batch {
    struct device *device;
    void *module;
    long block, grid;                    /* grid: the parts' blocks together */
    int parts, words;                    /* words: argument words taken */
    const struct kernel_desc *kernels[FUSED_MAX_PARTS];
    long grids[FUSED_MAX_PARTS];
    int arg_counts[FUSED_MAX_PARTS];
    uint64_t descriptor[DESCRIPTOR_WORDS];
};

static __thread struct batch *mine;
static __thread int flushing;

static const char *const params_b = "b";
static const struct kernel_desc fused_kernel = {
    .name = FUSED_KERNEL, .params = params_b, .team_stack_bytes = -1, .scheme = SCHEME_GPU_COMBINED,
    .gpu = 1, .fused_slot = -1,
};

/* the bytes argument `i` of `kernel` passes, and the words it takes here */
static size_t argument_bytes(const struct kernel_desc *kernel, int i) {
    return kernel->param_bytes ? (size_t)kernel->param_bytes[i] : 8;
}

static size_t argument_room(const struct kernel_desc *kernel, int i) { return (argument_bytes(kernel, i) + 7) / 8 * 8; }

static int argument_words(const struct kernel_desc *kernel, int count) {
    int i, words = 0;
    for (i = 0; i < count; i++) words += (int)(argument_room(kernel, i) / 8);
    return words;
}

/* Part `part`'s arguments as a launch passes them: pointers to their values in the descriptor. */
static void part_arguments(struct batch *b, int part, void **args) {
    const struct kernel_desc *kernel = b->kernels[part];
    char *at = (char *)&b->descriptor[ARGUMENTS_AT + (b->descriptor[1 + part] >> 48)];
    int i, count = b->arg_counts[part];
    for (i = 0; i < count; i++) {
        args[i] = at;
        at += argument_room(kernel, i);
    }
}

/* One launch left running ahead (the thread has a ring: fused_launches_add made sure), and
 * its line in the offload log: 0, or -1 (the device's message set). */
static int queue(struct batch *b, const struct kernel_desc *kernel, long grid, void **args, int arg_count) {
    int stream;
    if (run_ahead_launch(b->device, b->module, kernel, grid, b->block, args, arg_count, &stream)) return -1;
    record_fused_launch(b->device, kernel->name, grid, b->block, kernel == &fused_kernel ? b->parts : 1, stream);
    return 0;
}

static int launch_parts(struct batch *b) {
    void *args[ARGUMENT_WORDS];         /* a part has at most one parameter a word */
    int part;
    for (part = 0; part < b->parts; part++) {
        part_arguments(b, part, args);
        if (queue(b, b->kernels[part], b->grids[part], args, b->arg_counts[part])) return -1;
    }
    return 0;
}

/* Whether a launch of `grid` blocks of `kernel` loses nothing by running in the fused
 * kernel: its parts read their arguments at an offset known only at run time, so ptxas may
 * keep them all in registers and the fused kernel may hold far more than any part
 * (bench/lulesh/sweep-experiments-session27.md: 102 against 47). A launch whose blocks the
 * fused kernel would run fewer of at once on a multiprocessor than the kernel itself, and
 * more of than the device holds at once at the fused kernel's registers, goes unfused (as
 * wide_twin_fits: a grid that fits costs no occupancy). Unknown registers: fused. The
 * driver is asked once per thread, image, kernel and block size. */
static int occupancy_kept(struct device *d, void *module, const struct kernel_desc *kernel, long grid, long block) {
    enum { REMEMBERED = 16 };
    static __thread struct {
        void *module;
        const struct kernel_desc *kernel;
        long block, own, fused;          /* blocks a multiprocessor holds: the kernel's, the fused kernel's */
    } seen[REMEMBERED];
    static __thread int next;
    int i, own = -1, fused = -1, shared = 0;
    for (i = 0; i < REMEMBERED; i++)
        if (seen[i].kernel == kernel && seen[i].module == module && seen[i].block == block) break;
    if (i == REMEMBERED) {
        /* a grid too large for the kernel's wide twin: the registers of the kernel itself */
        if (d->ops->kernel_resources) {
            d->ops->kernel_resources(d, module, kernel, 1L << 30, block, &own, &shared);
            d->ops->kernel_resources(d, module, &fused_kernel, 1L << 30, block, &fused, &shared);
        }
        i = next++ % REMEMBERED;
        seen[i].module = module;
        seen[i].kernel = kernel;
        seen[i].block = block;
        seen[i].own = own > 0 && fused > 0 ? resident_blocks(d, block, own) : 0;
        seen[i].fused = own > 0 && fused > 0 ? resident_blocks(d, block, fused) : 0;
    }
    if (seen[i].fused >= seen[i].own || grid <= seen[i].fused * (d->multiprocessors > 0 ? d->multiprocessors : 1))
        return 1;
    offload_debug(1, "kernel %s: %ld blocks launched unfused (the fused kernel's registers let a multiprocessor "
                  "hold %ld blocks of %ld threads, the kernel's own %ld)", kernel->name, grid, seen[i].fused, block,
                  seen[i].own);
    return 0;
}

/* The calling thread's batch launched: 0, or -1 (the device given up, as a failed
 * run-ahead kernel is: its regions are not run again). */
static int launch_batch(void) {
    struct batch *b = mine;
    int failed = 0;
    if (!b || b->parts == 0 || flushing) return 0;
    flushing = 1;
    offload_lock();
    if (b->parts == 1) {
        failed = launch_parts(b);
    } else {
        void *args[1] = {b->descriptor};
        b->descriptor[0] = (uint64_t)b->parts;
        if (queue(b, &fused_kernel, b->grid, args, 1)) {
            offload_debug(1, "the fused launch of %d kernels failed (%s); launching them one by one", b->parts,
                          b->device->last_error);
            failed = launch_parts(b);
        }
    }
    if (failed && b->device->usable) device_failed(b->device, "running target regions on the host from now on");
    b->parts = 0;
    b->words = 0;
    b->grid = 0;
    offload_unlock();
    flushing = 0;
    return failed ? -1 : 0;
}

static void launch_held(int thread_ends) {
    launch_batch();
    if (thread_ends) {
        free(mine);
        mine = 0;
    }
}

static void flush_before_work(struct device *d) {
    if (mine && mine->device == d) launch_batch();      /* nothing held, or flushing: it returns */
}

/* The launch joined the calling thread's batch: 0; 1 not taken (to be launched now); -1
 * the batch it could not join failed to launch. */
int fused_launches_add(struct device *d, void *module, const struct kernel_desc *kernel, long grid, long block,
                       void **args, int arg_count) {
    struct batch *b;
    int words, i, idle;
    char *at;
    if (fusion_policy() == FUSE_OFF || kernel->fused_slot < 0 || strcmp(d->ops->kind, "gpu") != 0 || remote_device(d)
        || arg_count > ARGUMENT_WORDS || grid <= 0 || grid >= (1L << 31))
        return 1;
    words = argument_words(kernel, arg_count);
    if (words > ARGUMENT_WORDS || !occupancy_kept(d, module, kernel, grid, block)) return 1;
    if (!mine && (run_ahead_ready() || !(mine = calloc(1, sizeof *mine)))) return 1;
    b = mine;
    if (b->parts > 0 && (b->device != d || b->module != module || b->block != block || b->parts == FUSED_MAX_PARTS
                         || b->words + words > ARGUMENT_WORDS || b->grid + grid >= (1L << 31)))
        if (launch_batch()) return -1;
    /* adaptive: nothing of the thread's runs on the device, so holding the launch would
     * leave the device idle: it goes now, with any batch; launches that come while it
     * runs are held again */
    idle = fusion_policy() == FUSE_ADAPTIVE && run_ahead_idle();
    if (idle && b->parts == 0) return 1;
    if (b->parts == 0) {
        b->device = d;
        b->module = module;
        b->block = block;
        d->before_work = flush_before_work;         /* the device's copies and launches flush first */
        run_ahead_hold_launches(launch_held);       /* as do the thread's waits and its end */
    }
    b->descriptor[1 + b->parts] = (uint64_t)b->grid | (uint64_t)kernel->fused_slot << 32 | (uint64_t)b->words << 48;
    at = (char *)&b->descriptor[ARGUMENTS_AT + b->words];
    for (i = 0; i < arg_count; i++) {
        size_t bytes = argument_bytes(kernel, i);
        if (bytes == 8) memcpy(at, args[i], 8);       /* a pointer, most of them: one move */
        else memcpy(at, args[i], bytes);
        at += argument_room(kernel, i);
    }
    b->kernels[b->parts] = kernel;
    b->grids[b->parts] = grid;
    b->arg_counts[b->parts] = arg_count;
    b->grid += grid;
    b->words += words;
    b->parts++;
    /* a batch with a wave of blocks keeps the device busy while the host makes the next
     * launches, which form another batch: it goes now (LULESH's sweep: 11 launches, the
     * first 6 fill an H200 once; the device starts on them while the host makes the rest) */
    return idle || b->grid >= device_wave_blocks(d, b->block) ? launch_batch() : 0;
}
