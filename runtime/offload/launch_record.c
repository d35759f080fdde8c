/* What the runtime tells about its work when the environment asks:
 *   OMP2GPU_OFFLOAD_LOG=FILE  a line per kernel launch: kernel, device, grid, block (and
 *                             `stream=N` for a kernel left running), and with
 *                             OMP2GPU_AUTO_ASYNC a line per pair of launches that overlap
 *   OMP2GPU_COPY_LOG=FILE     a line per copy a map clause makes: direction, bytes, device
 *   LIBOMPTARGET_INFO=MASK    libomptarget's lines on stderr: 0x10 each launch, 0x20 each
 *                             map-clause copy (decimal or 0x hex; the other bits accepted
 *                             and ignored); any bit: how unified_shared_memory is
 *                             provided on each device
 * Read once, at the first launch or copy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "offload.h"

#define INFO_PLUGIN_KERNEL 0x10
#define INFO_DATA_TRANSFER 0x20

static int read_once;
static const char *launch_log, *copy_log;
static unsigned long info_mask;

static const char *own_copy(const char *text) { return text ? strdup(text) : 0; }

static void read_environment(void) {
    const char *info = getenv("LIBOMPTARGET_INFO");
    read_once = 1;
    launch_log = own_copy(getenv("OMP2GPU_OFFLOAD_LOG"));   /* the environment may change later */
    copy_log = own_copy(getenv("OMP2GPU_COPY_LOG"));
    if (info && info[0]) {
        char *end;
        long value = strtol(info, &end, 0);
        if (*end && *end != ' ')
            offload_report("warning", "LIBOMPTARGET_INFO=%s is not a number (a bit mask such as 0x30); ignored", info);
        else
            info_mask = (unsigned long)value & 0xFFFFFFFFUL;
    }
}

static const char *scheme_name(int scheme) {
    switch (scheme) {
    case SCHEME_CPU_COMBINED: return "cpu-combined";
    case SCHEME_CPU_SEQUENTIAL: return "cpu-sequential";
    case SCHEME_CPU_TEAMS: return "cpu-teams";
    default: return 0;
    }
}

static void append(const char *path, const char *line) {
    FILE *log = fopen(path, "a");
    if (!log) return;
    fputs(line, log);
    fclose(log);
}

void record_launch(struct device *d, const char *kernel, long grid, long block, int cpu_scheme, int stream) {
    char line[1024], label[300];
    if (!read_once) read_environment();
    offload_debug(1, "launching %s on device %d (%s): %ld teams of %ld threads", kernel, d->number, d->name, grid,
                  block);
    if (launch_log) {
        if (stream == STREAM_FUSED)      /* to be launched in the thread's fused launch */
            snprintf(line, sizeof line, "%s device='%s' grid=%ld block=%ld fused\n", kernel, d->name, grid, block);
        else if (stream)     /* a target task's kernel left running on the device's stream */
            snprintf(line, sizeof line, "%s device='%s' grid=%ld block=%ld stream=%d\n", kernel, d->name, grid,
                     block, stream);
        else
            snprintf(line, sizeof line, "%s device='%s' grid=%ld block=%ld\n", kernel, d->name, grid, block);
        append(launch_log, line);
    }
    if (info_mask & INFO_PLUGIN_KERNEL) {
        const char *scheme = strcmp(d->ops->kind, "cpu") == 0 ? scheme_name(cpu_scheme) : 0;
        d->ops->label(d, label, sizeof label);
        snprintf(line, sizeof line, "%s info", label);
        if (scheme)
            offload_report(line, "launching kernel %s with %ld blocks and %ld threads (%s)", kernel, grid, block,
                           scheme);
        else
            offload_report(line, "launching kernel %s with %ld blocks and %ld threads", kernel, grid, block);
    }
}

/* A launch of the kernels the log named "fused": the fused kernel running `parts` of them, or
 * the one a batch held (fused_launches.c). */
void record_fused_launch(struct device *d, const char *kernel, long grid, long block, int parts, int stream) {
    char line[1024];
    if (!read_once) read_environment();
    offload_debug(1, "launching %s on device %d (%s): %d kernels in %ld teams of %ld threads", kernel, d->number,
                  d->name, parts, grid, block);
    if (launch_log) {
        snprintf(line, sizeof line, "%s device='%s' grid=%ld block=%ld stream=%d parts=%d\n", kernel, d->name, grid,
                 block, stream, parts);
        append(launch_log, line);
    }
}

void record_copy(struct device *d, int to_device, uintptr_t host, uintptr_t device_address, long bytes) {
    char line[512], label[300];
    if (!read_once) read_environment();
    offload_debug(1, "copying %ld bytes %s device %d (host %#lx, device %#lx)", bytes, to_device ? "to" : "from",
                  d->number, (unsigned long)host, (unsigned long)device_address);
    if (copy_log) {
        snprintf(line, sizeof line, "%s bytes=%ld device='%s'\n", to_device ? "to-device" : "to-host", bytes,
                 d->name);
        append(copy_log, line);
    }
    if (info_mask & INFO_DATA_TRANSFER) {
        d->ops->label(d, label, sizeof label);
        snprintf(line, sizeof line, "%s info", label);
        offload_report(line, "copying data %s, HstPtr=%#018lx, TgtPtr=%#018lx, Size=%ld",
                       to_device ? "from host to device" : "from device to host", (unsigned long)host,
                       (unsigned long)device_address, bytes);
    }
}

void record_unified(struct device *d, const char *how) {
    char line[300];
    if (!read_once) read_environment();
    if (!info_mask) return;
    d->ops->label(d, line, sizeof line - 8);
    strcat(line, " info");
    offload_report(line, "unified_shared_memory: %s", how);
}

/* Automatic concurrency left `kernel` running beside `other` (docs/async.md). */
void record_overlap(struct device *d, const char *kernel, const char *other) {
    char line[1024];
    if (!read_once) read_environment();
    if (!launch_log) return;
    snprintf(line, sizeof line, "%s device='%s' overlaps %s\n", kernel, d->name, other);
    append(launch_log, line);
}
