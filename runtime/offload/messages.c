/* The runtime's messages on stderr, `omp2gpu: KIND: text`, after whatever the program
 * printed (its buffered stdout is flushed first), and the fatal exit: status 1 at once,
 * as libomptarget ends a program whose mapping failed; a device's message for its last
 * failure. */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include "offload.h"

static void say(const char *kind, const char *format, va_list arguments) {
    fflush(NULL);
    fprintf(stderr, "omp2gpu: %s: ", kind);
    vfprintf(stderr, format, arguments);
    fputc('\n', stderr);
    fflush(stderr);
}

void offload_report(const char *kind, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    say(kind, format, arguments);
    va_end(arguments);
}

/* A device's own message for its last failure (what device_failed reports). */
void device_error(struct device *device, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(device->last_error, sizeof device->last_error, format, arguments);
    va_end(arguments);
}

void offload_fatal(const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    say("error", format, arguments);
    va_end(arguments);
    _exit(1);
}
