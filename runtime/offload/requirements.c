/* `#pragma omp requires` of the program's files (OpenMP 5.0 2.5.1): each file that says
 * unified_shared_memory or unified_address tells the runtime from a constructor
 * (__omp2gpu_requires, entry_points.c). Every file with device constructs must say the
 * same: two files that differ end the program at the first of them, naming both
 * directives; a device construct in a file that said nothing (its "file:line:col" names
 * a file not registered here) ends it at that construct. Constructs in headers (".h")
 * are not checked: they belong to the file including them. */
#include <stdio.h>
#include <string.h>
#include "offload.h"

#define MAX_FILES 256

static long program_flags = -1;            /* -1: no file has said anything */
static char first_where[512];
static char files[MAX_FILES][256];         /* the files that said it, by name */
static int file_count;
static const char *last_checked;           /* the last construct found in a registered file */

static void file_of(const char *where, char *file, size_t size) {
    const char *end = where + strlen(where);
    int colons = 0;
    while (end > where && colons < 2)
        if (*--end == ':') colons++;
    if (colons < 2) end = where + strlen(where);
    snprintf(file, size, "%.*s", (int)(end - where), where);
}

static const char *names(long flags) {
    switch (flags & (REQUIRES_UNIFIED_ADDRESS | REQUIRES_UNIFIED_SHARED_MEMORY)) {
    case REQUIRES_UNIFIED_ADDRESS: return "unified_address";
    case REQUIRES_UNIFIED_SHARED_MEMORY: return "unified_shared_memory";
    case REQUIRES_UNIFIED_ADDRESS | REQUIRES_UNIFIED_SHARED_MEMORY: return "unified_shared_memory unified_address";
    default: return "no requirement";
    }
}

void requirements_register(long flags, const char *where) {
    char file[256];
    if (!where) where = "";
    if (program_flags >= 0 && flags != program_flags) {
        offload_fatal("%s: '#pragma omp requires' here asks for %s, but %s asks for %s: every file of the "
                      "program with device constructs must require the same (OpenMP 5.0 2.5.1)",
                      where, names(flags), first_where, names(program_flags));
        return;
    }
    if (program_flags < 0) {
        program_flags = flags;
        snprintf(first_where, sizeof first_where, "%s", where);
    }
    file_of(where, file, sizeof file);
    if (file_count < MAX_FILES) snprintf(files[file_count++], sizeof files[0], "%s", file);
}

long requirements_flags(void) { return program_flags < 0 ? 0 : program_flags; }

void requirements_check_construct(const char *where) {
    char file[256];
    size_t length;
    int i;
    if (program_flags <= 0 || !where || !where[0] || where == last_checked) return;
    file_of(where, file, sizeof file);
    length = strlen(file);
    if (length >= 2 && strcmp(file + length - 2, ".h") == 0) return;
    for (i = 0; i < file_count; i++)
        if (strcmp(files[i], file) == 0) {
            last_checked = where;
            return;
        }
    offload_fatal("%s: a device construct in a file without '#pragma omp requires %s', which %s requires "
                  "of the whole program: every file with device constructs must say it (OpenMP 5.0 2.5.1)",
                  where, names(program_flags), first_where);
}
