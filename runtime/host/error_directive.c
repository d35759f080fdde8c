/* OpenMP 5.1's `error` directive at(execution) (section 2.5.4): the message on stderr, as
 * libgomp words it; severity(fatal) then ends the program with EXIT_FAILURE, as libgomp's
 * GOMP_error does. The host and the CPU device (cpu_device/omp_device.c includes this
 * file) call it; a GPU region holding the directive runs on the host.
 * Compiled by omp2gpu itself. */
#include <stdio.h>
#include <stdlib.h>

void __omp2gpu_error_directive(const char *message, int fatal) {
    fprintf(stderr, "\nlibgomp: %serror directive encountered%s%s\n", fatal ? "fatal error: " : "",
            message ? ": " : "", message ? message : "");
    fflush(stderr);
    if (fatal)
        exit(EXIT_FAILURE);
}
