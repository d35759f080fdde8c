/* The devices: found at the first call that needs them, the CUDA GPUs, or where there is
 * none the CPU device; OMP2GPU_DEVICES names them in order (a kind named twice gives its
 * devices twice: "gpu,cpu" counts the CPU device after the GPUs);
 * the host is the initial device, numbered after them. A device that fails is given up:
 * its data copied back, the region (and every later one) run on the host, unless
 * OMP_TARGET_OFFLOAD=MANDATORY, which makes that fatal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "offload.h"
#include "remote.h"

#define MAX_DEVICES 64

static struct device devices[MAX_DEVICES];
static int count = -1;              /* -1: not yet looked for */
static int default_device = -1;     /* default-device-var; -1: not yet read */
static enum policy policy;
static volatile int exiting;         /* the process is ending: exit() called, or main returned */

/* Registered once the devices are found, after the drivers' own exit handlers (cuInit's):
 * it runs before them. From then on a device failing is the driver going away under a
 * thread still offloading while another calls exit, not the program's error. */
static void exit_begins(void) { exiting = 1; }

/* The program's requirements on one device: under unified_address an unmapped pointer is
 * passed as it is (a device pointer needs no is_device_ptr); under unified_shared_memory
 * every map is in place (docs/unified-memory.md), the device choosing how it reaches host
 * memory; one that cannot is given up (its regions run on the host). */
static void apply_requirements(struct device *d) {
    static const char *how[] = {"", "host memory read in place (no copies)",
                                "the unified_shared_memory heap in managed memory (cuMemAllocManaged), other "
                                "host objects registered (cuMemHostRegister) when mapped or captured"};
    long flags = requirements_flags();
    uintptr_t low, high, alias;
    int mode;
    if (!d->usable) return;
    if (flags & (REQUIRES_UNIFIED_ADDRESS | REQUIRES_UNIFIED_SHARED_MEMORY)) d->table.unified = 1;
    if (!(flags & REQUIRES_UNIFIED_SHARED_MEMORY) || d->usm) return;
    mode = d->ops->unify ? d->ops->unify(d) : -1;
    if (mode == USM_MANAGED && executable_data(&low, &high) == 0          /* static objects reachable */
        && d->ops->host_alias(d, low, (long)(high - low), &alias))
        mode = -1;
    if (mode <= 0) {
        if (!d->last_error[0]) device_error(d, "it cannot provide unified_shared_memory");
        device_failed(d, "running target regions on the host, which '#pragma omp requires unified_shared_memory' "
                         "allows");
        return;
    }
    d->usm = mode;
    d->table.in_place = 1;
    record_unified(d, how[mode]);
}

void devices_apply_requirements(void) {
    int i;
    for (i = 0; i < count; i++) apply_requirements(&devices[i]);    /* none yet: at discovery */
}

static void discover(void) {
    char kinds[16];
    int kind_count, k, gpus = 0, ordinal, rank_device, remotes = 0;
    policy = offload_policy();
    if (default_device < 0) default_device = default_device_from_environment();
    count = 0;
    if (policy == POLICY_DISABLED) {
        offload_debug(1, "OMP_TARGET_OFFLOAD=DISABLED: no device; target regions run on the host");
        return;
    }
    kind_count = device_kinds(kinds, 16);
    for (k = 0; k < kind_count; k++) {
        if (kinds[k] == 'g') {
            int available = cuda_device_count();
            for (ordinal = 0; ordinal < available && count < MAX_DEVICES; ordinal++) {
                struct device *d = &devices[count];
                memset(d, 0, sizeof *d);
                d->number = count;
                if (cuda_device_make(d, ordinal)) {
                    offload_report("warning", "CUDA device %d cannot be used (%s)", ordinal, d->last_error);
                    continue;
                }
                d->usable = 1;
                count++;
                gpus++;
            }
        } else if (kinds[k] == 'r') {                 /* a server's devices (remote_device.c) */
            count += remote_devices_make(remotes++, &devices[count], MAX_DEVICES - count, count);
        } else if (kinds[k] == 'f' && gpus > 0) {
            continue;                                  /* the CPU device only where no GPU is */
        } else if (count < MAX_DEVICES) {
            struct device *d = &devices[count];
            memset(d, 0, sizeof *d);
            d->number = count;
            if (cpu_device_make(d)) {
                offload_report("warning", "the CPU device cannot be used (%s)", d->last_error);
                continue;
            }
            d->usable = 1;
            count++;
        }
    }
    for (k = 0; k < count; k++) apply_requirements(&devices[k]);
    atexit(exit_begins);
    if (gpus == 0) offload_debug(1, "no GPU: %s", cuda_unavailable_reason());
    for (k = 0; k < count; k++) offload_debug(1, "device %d: %s (%s)", k, devices[k].name, devices[k].ops->kind);
    rank_device = rank_default_device(gpus);
    if (rank_device >= 0) {
        char text[32];
        default_device = rank_device;
        snprintf(text, sizeof text, "%d", rank_device);
        setenv("OMP_DEFAULT_DEVICE", text, 1);     /* omp_get_default_device agrees */
    }
}

int device_count(void) {
    if (count < 0) discover();
    return count;
}

/* The devices found so far, none looked for: 0 before the first call that needs them. */
int devices_found(void) { return count < 0 ? 0 : count; }

struct device *device_at(int number) {
    return number >= 0 && number < device_count() ? &devices[number] : 0;
}

int device_current_default(void) {
    if (default_device < 0) default_device = default_device_from_environment();
    return default_device;
}

void device_set_default(int number) { default_device = number; }

/* Under MANDATORY (`omp2gpu run --device gpu|cpu` sets it): fatal, saying why no GPU is
 * usable and what fixes it, as `omp2gpu doctor` does. */
static struct device *unavailable(const char *why, long number) {
    const char *gpu = cuda_unavailable_reason();
    const char *devices = getenv("OMP2GPU_DEVICES");
    if (policy != POLICY_MANDATORY || exiting) return 0;      /* exiting: a device given up above */
    if (number < 0)
        offload_fatal("%s, and target regions must run on one (OMP_TARGET_OFFLOAD=MANDATORY%s%s)%s%s%s", why,
                      devices ? ", OMP2GPU_DEVICES=" : "", devices ? devices : "", gpu[0] ? ": no GPU: " : "", gpu,
                      "; `omp2gpu doctor` lists the devices");
    offload_fatal("device %ld is not available, and target regions must run on it (OMP_TARGET_OFFLOAD=MANDATORY)%s%s",
                  number, gpu[0] ? "; no GPU: " : "", gpu);
    return 0;
}

/* The device for a device clause's value (-1: none, the default device); NULL: the host. */
struct device *select_device(long number) {
    int n = device_count();
    if (policy == POLICY_DISABLED || offload_error_pending()) return 0;
    if (number == -1) {
        if (n == 0) return unavailable("no device is available", -1);
        number = device_current_default();
    }
    if (number == n) return 0;                          /* the initial device, asked for */
    if (number < 0 || number > n) return unavailable("", number);
    if (!devices[number].usable) return unavailable("", number);
    return &devices[number];
}

void device_failed(struct device *d, const char *consequence) {
    const char *reason = d->last_error[0] ? d->last_error : "device error";
    if (exiting) {                   /* quietly: the regions run on the host until the process ends */
        d->usable = 0;
        return;
    }
    if (policy == POLICY_MANDATORY)
        offload_fatal("offload to device %d failed (%s) and OMP_TARGET_OFFLOAD=MANDATORY", d->number, reason);
    else
        offload_report("warning", "offload to device %d failed (%s); %s", d->number, reason, consequence);
    table_evacuate(d);
    d->usable = 0;
}

