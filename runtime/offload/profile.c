/* OMP2GPU_PROFILE=FILE (or libomptarget's LIBOMPTARGET_PROFILE=FILE): the run as a Chrome / Perfetto trace, as omp2gpu/trace_events.py
 * writes the compiler's: a complete event ("ph": "X", microseconds from the
 * first event) per kernel launch and per map-clause copy, each on a track (the host's
 * process and its threads; each device a process of its own, its tracks the GPU's stream
 * or the host threads that launched on the CPU device), named by metadata events; and
 * "otherData": the device's name and, per kernel, every launch's
 * configuration and time (what the benchmarks read). A launch's time is the kernel's
 * (CUDA events on a GPU; the launch itself on the CPU device, which runs it before it
 * returns). Written when the program exits (atexit), unless a host program that keeps a
 * trace of its own took it (__omp2gpu_profile_json: the Python API's process, whose trace
 * holds its compile stages and these events, and is written when Python exits). A native
 * program's own trace has no compile stages: `omp2gpu run` compiled it in another process. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "offload.h"

struct event {
    char *name; const char *category; double start, duration; int pid; long tid; long grid, block;
    int registers, shared_bytes;      /* a kernel's, as the driver compiled it; -1 unknown */
};
struct track { int pid; long tid; char name[64]; };

static int read_once, active, taken;
static const char *path;
static double origin;
static struct event *events;
static long event_count, event_capacity;
static struct track tracks[256];
static int track_count;
static char process_labels[65][300];
static int process_count;
static char device_name[256];

static double clock_us(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1e6 + now.tv_nsec / 1e3;
}

static void write_profile(void);

int profile_active(void) {
    if (!read_once) {
        read_once = 1;
        path = getenv("OMP2GPU_PROFILE");
        if (!path || !path[0]) path = getenv("LIBOMPTARGET_PROFILE");       /* libomptarget's name for it */
        active = path && path[0];
        if (active) {
            origin = clock_us();
            atexit(write_profile);
        }
    }
    return active;
}

double profile_now(void) { return clock_us() - origin; }

/* the trace's process for a label: the host keeps its pid, devices numbers after it */
static int process_of(const char *label) {
    int i;
    for (i = 0; i < process_count; i++)
        if (strcmp(process_labels[i], label) == 0) return getpid() + i;
    if (process_count == 65) return getpid();
    snprintf(process_labels[process_count], sizeof process_labels[0], "%s", label);
    return getpid() + process_count++;
}

static long track_of(int pid, const char *stream) {
    long tid = stream ? 1 : (long)gettid();
    int i;
    for (i = 0; i < track_count; i++)
        if (tracks[i].pid == pid && tracks[i].tid == tid) return tid;
    if (track_count < 256) {
        tracks[track_count].pid = pid;
        tracks[track_count].tid = tid;
        if (stream) snprintf(tracks[track_count].name, sizeof tracks[0].name, "%s", stream);
        else if (tid == getpid()) snprintf(tracks[track_count].name, sizeof tracks[0].name, "main thread");
        else snprintf(tracks[track_count].name, sizeof tracks[0].name, "thread %ld", tid);
        track_count++;
    }
    return tid;
}

static void add(struct device *d, const char *name, const char *category, double start, double duration,
                long grid, long block, int registers, int shared_bytes) {
    char label[300];
    struct event *e;
    d->ops->label(d, label, sizeof label);
    if (event_count == event_capacity) {
        event_capacity = event_capacity ? 2 * event_capacity : 1024;
        events = realloc(events, (size_t)event_capacity * sizeof *events);
    }
    e = &events[event_count++];
    e->name = strdup(name);
    e->category = category;
    e->start = start;
    e->duration = duration > 0 ? duration : 0;
    e->pid = process_of(label);
    e->tid = track_of(e->pid, strcmp(d->ops->kind, "gpu") == 0 ? "stream 0 (default)" : 0);
    e->grid = grid;
    e->block = block;
    e->registers = registers;
    e->shared_bytes = shared_bytes;
    snprintf(device_name, sizeof device_name, "%s", d->name);
}

void profile_launch(struct device *d, const char *kernel, long grid, long block, double start, double micros,
                    int registers, int shared_bytes) {
    if (profile_active()) add(d, kernel, "kernel", start, micros, grid, block, registers, shared_bytes);
}

void profile_copy(struct device *d, int to_device, long bytes, double start) {
    if (profile_active())
        add(d, to_device ? "copy to-device" : "copy to-host", "copy", start, profile_now() - start, -1, bytes, -1, -1);
}

static void json_string(FILE *out, const char *text) {
    fputc('"', out);
    for (; *text; text++) {
        if (*text == '"' || *text == '\\') fprintf(out, "\\%c", *text);
        else if ((unsigned char)*text < 32) fprintf(out, "\\u%04x", *text);
        else fputc(*text, out);
    }
    fputc('"', out);
}

/* The trace as JSON, each event's start `shift` microseconds later than recorded. */
static void render(FILE *out, double shift) {
    long i, j;
    int first = 1;
    fputs("{\"traceEvents\": [", out);
    for (i = 0; i < process_count; i++) {
        fprintf(out, "%s\n{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %d, \"tid\": 0, \"args\": {\"name\": ",
                first ? "" : ",", getpid() + (int)i);
        json_string(out, process_labels[i]);
        fprintf(out, "}},\n{\"name\": \"process_sort_index\", \"ph\": \"M\", \"pid\": %d, \"tid\": 0, "
                "\"args\": {\"sort_index\": %ld}}", getpid() + (int)i, i + 1);
        first = 0;
    }
    for (i = 0; i < track_count; i++) {
        fprintf(out, "%s\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %d, \"tid\": %ld, \"args\": {\"name\": ",
                first ? "" : ",", tracks[i].pid, tracks[i].tid);
        json_string(out, tracks[i].name);
        fputs("}}", out);
        first = 0;
    }
    for (i = 0; i < event_count; i++) {
        struct event *e = &events[i];
        fprintf(out, "%s\n{\"name\": ", first ? "" : ",");
        json_string(out, e->name);
        fprintf(out, ", \"cat\": \"%s\", \"ph\": \"X\", \"ts\": %.3f, \"dur\": %.3f, \"pid\": %d, \"tid\": %ld",
                e->category, e->start + shift, e->duration, e->pid, e->tid);
        if (e->grid >= 0) fprintf(out, ", \"args\": {\"grid\": %ld, \"block\": %ld}}", e->grid, e->block);
        else fprintf(out, ", \"args\": {\"bytes\": %ld}}", e->block);
        first = 0;
    }
    fputs("\n], \"displayTimeUnit\": \"ms\", \"otherData\": {\"device\": ", out);
    if (device_name[0]) json_string(out, device_name);
    else fputs("null", out);
    fputs(", \"kernels\": {", out);
    first = 1;
    for (i = 0; i < event_count; i++) {                   /* each kernel once, its launches in order */
        int seen = 0, launch = 1;
        if (events[i].grid < 0) continue;
        for (j = 0; j < i && !seen; j++) seen = events[j].grid >= 0 && strcmp(events[j].name, events[i].name) == 0;
        if (seen) continue;
        fprintf(out, "%s\n", first ? "" : ",");
        json_string(out, events[i].name);
        fputs(": {", out);
        if (events[i].registers >= 0) fprintf(out, "\"registers\": %d, ", events[i].registers);
        if (events[i].shared_bytes >= 0) fprintf(out, "\"shared_bytes\": %d, ", events[i].shared_bytes);
        fputs("\"launches\": [", out);
        for (j = i; j < event_count; j++) {
            if (events[j].grid < 0 || strcmp(events[j].name, events[i].name) != 0) continue;
            fprintf(out, "%s{\"grid\": %ld, \"block\": %ld, \"us\": %.3f}", launch ? "" : ", ", events[j].grid,
                    events[j].block, events[j].duration);
            launch = 0;
        }
        fputs("]}", out);
        first = 0;
    }
    fputs("}}}\n", out);
}

static void write_profile(void) {
    FILE *out;
    if (taken) return;
    out = fopen(path, "w");
    if (!out) {
        offload_report("warning", "cannot write the profile to %s", path);
        return;
    }
    render(out, 0);
    fclose(out);
}

/* The trace so far as JSON into `buffer` (NUL-terminated, cut to `size`), its starts in
 * microseconds from `caller_origin` (CLOCK_MONOTONIC microseconds: the caller's trace's start);
 * its length, -1 when the run is not profiled. From the first call on, the caller writes
 * the trace: the runtime no longer does at exit. */
long __omp2gpu_profile_json(double caller_origin, char *buffer, long size) {
    char *text = NULL;
    size_t length = 0;
    FILE *out;
    if (!profile_active()) return -1;
    offload_lock();
    taken = 1;
    out = open_memstream(&text, &length);
    if (out) {
        render(out, origin - caller_origin);
        fclose(out);
    }
    offload_unlock();
    if (!out) return -1;
    if (buffer && size > 0) snprintf(buffer, (size_t)size, "%s", text);
    free(text);
    return (long)length;
}
