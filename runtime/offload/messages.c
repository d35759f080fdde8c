/* The runtime's messages on stderr, `omp2gpu: KIND: text`, after whatever the program
 * printed (its buffered stdout is flushed first), and the fatal exit: status 1 at once,
 * as libomptarget ends a program whose mapping failed; a device's message for its last
 * failure; errors kept for a caller that raises them (the Python API); LIBOMPTARGET_DEBUG's
 * lines. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "offload.h"

static void say(const char *kind, const char *format, va_list arguments) {
    fflush(NULL);
    fprintf(stderr, "omp2gpu: %s: ", kind);
    vfprintf(stderr, format, arguments);
    fputc('\n', stderr);
    fflush(stderr);
}

/* LIBOMPTARGET_DEBUG=LEVEL (libomptarget's variable): the runtime's steps on stderr, each
 * `omp2gpu: debug: ...`: 1 the devices found (and why no GPU), images registered and
 * loaded, each launch with its shape, each map-clause copy; 0 or unset nothing. */
int offload_debug_level(void) {
    static int level = -1;
    if (level < 0) {
        const char *text = getenv("LIBOMPTARGET_DEBUG");
        level = text ? atoi(text) : 0;
        if (level < 0) level = 0;
    }
    return level;
}

void offload_debug(int level, const char *format, ...) {
    va_list arguments;
    if (offload_debug_level() < level) return;
    va_start(arguments, format);
    say("debug", format, arguments);
    va_end(arguments);
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

/* The program's error, or a MANDATORY device that cannot run it: status 1 at once; or,
 * where the caller asked for errors to be raised (__omp2gpu_raise_errors: the Python API,
 * which must not end the interpreter), the message kept for it, and a return: the caller
 * then does nothing more on any device until the error is taken (offload_error_pending). */
static int raising;
static char pending[1024];
int __omp2gpu_error_pending;     /* read in place by the Python API after a call (native_link) */

void offload_fatal(const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    if (raising) {
        if (!__omp2gpu_error_pending) vsnprintf(pending, sizeof pending, format, arguments);
        __omp2gpu_error_pending = 1;
        va_end(arguments);
        return;
    }
    say("error", format, arguments);
    va_end(arguments);
    _exit(1);
}

int offload_error_pending(void) { return __omp2gpu_error_pending; }

/* The label of a construct's map entry `index`: `where` is "file:line:col", and after its
 * NUL one NUL-terminated label per entry (the list item as written and its line), an
 * empty label ending them (offload/abi.py); "" past them or without `where`. */
const char *map_entry_label(const char *where, int index) {
    const char *label;
    int i;
    if (!where) return "";
    label = where + strlen(where) + 1;
    for (i = 0; i < index && *label; i++) label += strlen(label) + 1;
    return label;
}

void __omp2gpu_raise_errors(int on) { raising = on; }

/* The pending error's message into `buffer` (cut to `size`), its length, and no error
 * pending any more; 0: none. */
int __omp2gpu_take_error(char *buffer, size_t size) {
    int length;
    if (!__omp2gpu_error_pending) return 0;
    length = (int)strlen(pending);
    if (buffer && size > 0) snprintf(buffer, size, "%s", pending);
    __omp2gpu_error_pending = 0;
    pending[0] = 0;
    return length ? length : 1;
}
