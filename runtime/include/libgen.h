/* omp2gpu <libgen.h>: POSIX dirname and basename (glibc's POSIX basename is
 * __xpg_basename; the plain symbol is GNU's, which differs on "a/b/"). */
#ifndef __OMP2GPU_LIBGEN_H
#define __OMP2GPU_LIBGEN_H

char *dirname(char *path);
char *__xpg_basename(char *path);
#define basename __xpg_basename

#endif
