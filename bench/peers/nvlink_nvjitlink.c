/* `nvlink` for clang-19's device link (clang-nvlink-wrapper calls it) made of CUDA 12's
 * nvJitLink library, which a wheel ships where CUDA 12's nvlink is not to be had: LLVM 19's
 * offload runtime refuses the images CUDA 13's nvlink makes, so bench/peers builds Clang's
 * programs with CUDA 12's ptxas and links their cubins with this.
 *   nvlink -o OUT [-v] -arch sm_XY [-L DIR]... INPUT.cubin...
 * Inputs are cubins (or PTX, by their .ptx suffix); -L and the other flags are ignored. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nvJitLink.h>

static int failed(nvJitLinkHandle link, nvJitLinkResult result, const char *what) {
    size_t size = 0;
    if (result == NVJITLINK_SUCCESS) return 0;
    fprintf(stderr, "nvlink (nvJitLink): %s failed (%d)\n", what, (int)result);
    if (link && nvJitLinkGetErrorLogSize(link, &size) == NVJITLINK_SUCCESS && size > 1) {
        char *log = malloc(size);
        if (log && nvJitLinkGetErrorLog(link, log) == NVJITLINK_SUCCESS) fprintf(stderr, "%s\n", log);
        free(log);
    }
    return 1;
}

int main(int argc, char **argv) {
    const char *output = 0, *arch = 0;
    char arch_option[64];
    const char *options[1];
    nvJitLinkHandle link = 0;
    size_t size = 0;
    void *cubin;
    FILE *out;
    int i;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) output = argv[++i];
        else if (strcmp(argv[i], "-arch") == 0 && i + 1 < argc) arch = argv[++i];
        else if (strcmp(argv[i], "-L") == 0 && i + 1 < argc) i++;
    }
    if (!output || !arch) {
        fprintf(stderr, "usage: nvlink -o OUT -arch sm_XY INPUT...\n");
        return 1;
    }
    snprintf(arch_option, sizeof arch_option, "-arch=%s", arch);
    options[0] = arch_option;
    if (failed(0, nvJitLinkCreate(&link, 1, options), "nvJitLinkCreate")) return 1;
    for (i = 1; i < argc; i++) {
        size_t length = strlen(argv[i]);
        if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "-arch") == 0 || strcmp(argv[i], "-L") == 0) {
            i++;
            continue;
        }
        if (argv[i][0] == '-') continue;
        if (failed(link, nvJitLinkAddFile(link, length > 4 && strcmp(argv[i] + length - 4, ".ptx") == 0
                                                    ? NVJITLINK_INPUT_PTX : NVJITLINK_INPUT_CUBIN, argv[i]),
                   argv[i]))
            return 1;
    }
    if (failed(link, nvJitLinkComplete(link), "the link")
        || failed(link, nvJitLinkGetLinkedCubinSize(link, &size), "nvJitLinkGetLinkedCubinSize"))
        return 1;
    cubin = malloc(size);
    if (!cubin || failed(link, nvJitLinkGetLinkedCubin(link, cubin), "nvJitLinkGetLinkedCubin")) return 1;
    out = fopen(output, "wb");
    if (!out || fwrite(cubin, 1, size, out) != size || fclose(out) != 0) {
        perror(output);
        return 1;
    }
    nvJitLinkDestroy(&link);
    return 0;
}
