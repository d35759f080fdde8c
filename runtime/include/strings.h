/* omp2gpu <strings.h>: BSD string functions (glibc x86-64). */
#ifndef __OMP2GPU_STRINGS_H
#define __OMP2GPU_STRINGS_H

#include <features.h>

#ifndef __OMP2GPU_SIZE_T
#define __OMP2GPU_SIZE_T
typedef unsigned long size_t;
#endif

#if defined __USE_MISC || !defined __USE_XOPEN2K8
int bcmp(const void *s1, const void *s2, size_t n);
void bcopy(const void *src, void *dest, size_t n);
void bzero(void *s, size_t n);
char *index(const char *s, int c);
char *rindex(const char *s, int c);
#endif
#if defined __USE_MISC || !defined __USE_XOPEN2K8 || defined __USE_XOPEN2K8XSI
int ffs(int i);
#endif
#if defined __USE_MISC
int ffsl(long l);
int ffsll(long long ll);
#endif
int strcasecmp(const char *s1, const char *s2);
int strncasecmp(const char *s1, const char *s2, size_t n);

#endif
