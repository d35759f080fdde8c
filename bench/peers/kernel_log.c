/* A CUDA injection library: with CUDA_INJECTION64_PATH naming it, the driver loads it at
 * cuInit in any program, whichever compiler built it, and CUPTI's activity API records
 * every kernel the program runs. At exit one line a kernel goes to $PEERS_KERNEL_LOG:
 *   duration_ns <TAB> registers <TAB> blocks <TAB> threads_per_block <TAB> shared_bytes <TAB> name
 * (with PEERS_KERNEL_STARTS set, each line begins with the kernel's start, ns, and a TAB:
 * bench/lulesh/sweep.py's spans of the GPU's work; with PEERS_API_CALLS set, also a line a
 * driver or runtime API call: `api <TAB> start_ns <TAB> end_ns <TAB> name`, its --phases)
 * bench/peers times omp2gpu's and Clang's programs this one way (what Nsight Systems does,
 * without its report step; ncu's replays would take minutes a program). */
#include <stdio.h>
#include <stdlib.h>
#include <cupti.h>

#define BUFFER_BYTES (8u << 20)

static FILE *out;
static int with_start, with_api;

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
    *buffer = aligned_alloc(8, BUFFER_BYTES);
    *size = *buffer ? BUFFER_BYTES : 0;
    *max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream, uint8_t *buffer, size_t size,
                                      size_t valid) {
    CUpti_Activity *record = NULL;
    (void)context, (void)stream, (void)size;
    while (out && cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)record;
        if (record->kind == CUPTI_ACTIVITY_KIND_DRIVER || record->kind == CUPTI_ACTIVITY_KIND_RUNTIME) {
            const CUpti_ActivityAPI *call = (const CUpti_ActivityAPI *)record;
            const char *name = "?";
            cuptiGetCallbackName(record->kind == CUPTI_ACTIVITY_KIND_DRIVER ? CUPTI_CB_DOMAIN_DRIVER_API
                                                                            : CUPTI_CB_DOMAIN_RUNTIME_API,
                                 call->cbid, &name);
            fprintf(out, "api\t%llu\t%llu\t%s\n", (unsigned long long)call->start, (unsigned long long)call->end, name);
            continue;
        }
        if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) continue;
        if (with_start) fprintf(out, "%llu\t", (unsigned long long)k->start);
        fprintf(out, "%llu\t%u\t%lld\t%d\t%d\t%s\n", (unsigned long long)(k->end - k->start),
                (unsigned)k->registersPerThread, (long long)k->gridX * k->gridY * k->gridZ,
                k->blockX * k->blockY * k->blockZ, k->staticSharedMemory + k->dynamicSharedMemory,
                k->name ? k->name : "?");
    }
    free(buffer);
}

static void finish(void) {
    cuptiActivityFlushAll(1);
    if (out) fclose(out);
    out = NULL;
}

int InitializeInjection(void) {
    const char *path = getenv("PEERS_KERNEL_LOG");
    out = path ? fopen(path, "w") : NULL;
    if (!out) return 0;
    with_start = getenv("PEERS_KERNEL_STARTS") != NULL;
    with_api = getenv("PEERS_API_CALLS") != NULL;
    if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS
        || cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS
        || (with_api && (cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DRIVER) != CUPTI_SUCCESS
                         || cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME) != CUPTI_SUCCESS))) {
        fprintf(out, "# CUPTI refused\n");
        return 0;
    }
    atexit(finish);
    return 1;
}
