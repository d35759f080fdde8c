/* OMP_DISPLAY_ENV=TRUE|VERBOSE: after the host OpenMP runtime's block (libgomp prints the
 * host's ICVs), the offload runtime's own at start-up, in the same form: the devices
 * target regions may run on, in their numbering, and the variables that choose them and
 * shape their launches, as this runtime applies them. */
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include "offload.h"

static const char *shown(const char *name) {
    const char *value = getenv(name);
    return value ? value : "";
}

__attribute__((constructor)) static void display_environment(void) {
    const char *asked = getenv("OMP_DISPLAY_ENV");
    int i, n;
    if (!asked || (strcasecmp(asked, "true") != 0 && strcasecmp(asked, "verbose") != 0)) return;
    n = device_count();
    fflush(stdout);
    fprintf(stderr, "\nOMP2GPU DISPLAY ENVIRONMENT BEGIN\n");
    fprintf(stderr, "  [device] omp_get_num_devices() = '%d'\n", n);
    for (i = 0; i < n; i++) fprintf(stderr, "  [device] device %d = '%s (%s)'\n", i, device_at(i)->name,
                                    device_at(i)->ops->kind);
    fprintf(stderr, "  [device] device %d = 'the host (the initial device)'\n", n);
    if (cuda_unavailable_reason()[0]) fprintf(stderr, "  [device] no GPU = '%s'\n", cuda_unavailable_reason());
    fprintf(stderr, "  OMP_TARGET_OFFLOAD = '%s'\n", shown("OMP_TARGET_OFFLOAD"));
    fprintf(stderr, "  OMP_DEFAULT_DEVICE = '%d'\n", device_current_default());
    fprintf(stderr, "  OMP2GPU_DEVICES = '%s'\n", shown("OMP2GPU_DEVICES"));
    fprintf(stderr, "  [device] OMP_NUM_TEAMS = '%ld'\n", teams_environment(0));
    fprintf(stderr, "  [device] OMP_TEAMS_THREAD_LIMIT = '%ld'\n", teams_environment(1));
    fprintf(stderr, "  [device] OMP_MAX_ACTIVE_LEVELS = '1'\n");
    fprintf(stderr, "OMP2GPU DISPLAY ENVIRONMENT END\n");
    fflush(stderr);
}
