/* omp2gpu <string.h>: glibc x86-64 prototypes. */
#ifndef __OMP2GPU_STRING_H
#define __OMP2GPU_STRING_H

#include <features.h>

#ifndef __OMP2GPU_SIZE_T
#define __OMP2GPU_SIZE_T
typedef unsigned long size_t;
#endif
#ifndef NULL
#define NULL ((void *)0)
#endif

/* glibc's <string.h> brings in <strings.h> (bzero, strcasecmp, ...) for BSD names. */
#ifdef __USE_MISC
#include <strings.h>
#endif

void *memcpy(void *restrict dest, const void *restrict src, size_t n);
void *memmove(void *dest, const void *src, size_t n);
void *memset(void *s, int c, size_t n);
int memcmp(const void *s1, const void *s2, size_t n);
void *memchr(const void *s, int c, size_t n);

char *strcpy(char *restrict dest, const char *restrict src);
char *strncpy(char *restrict dest, const char *restrict src, size_t n);
char *strcat(char *restrict dest, const char *restrict src);
char *strncat(char *restrict dest, const char *restrict src, size_t n);
int strcmp(const char *s1, const char *s2);
int strncmp(const char *s1, const char *s2, size_t n);
int strcoll(const char *s1, const char *s2);
size_t strxfrm(char *restrict dest, const char *restrict src, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
size_t strspn(const char *s, const char *accept);
size_t strcspn(const char *s, const char *reject);
char *strpbrk(const char *s, const char *accept);
char *strstr(const char *haystack, const char *needle);
char *strtok(char *restrict s, const char *restrict delim);
#if defined __USE_POSIX
char *strtok_r(char *restrict s, const char *restrict delim, char **restrict saveptr);
#endif
size_t strlen(const char *s);
#if defined __USE_XOPEN2K8
size_t strnlen(const char *s, size_t maxlen);
#endif
#if defined __USE_XOPEN_EXTENDED || defined __USE_XOPEN2K8
char *strdup(const char *s);
#endif
#if defined __USE_XOPEN2K8
char *strndup(const char *s, size_t n);
#endif
char *strerror(int errnum);
/* POSIX strerror_r (the plain symbol is GNU's, which returns char *). */
#if defined __USE_XOPEN2K
int __xpg_strerror_r(int errnum, char *buf, size_t buflen);
#define strerror_r __xpg_strerror_r
#endif
#if defined __USE_XOPEN2K8
char *strsignal(int sig);
char *stpcpy(char *restrict dest, const char *restrict src);
char *stpncpy(char *restrict dest, const char *restrict src, size_t n);
#endif
#if defined __USE_MISC
char *strsep(char **restrict stringp, const char *restrict delim);
#endif
#if defined __USE_XOPEN || defined __USE_MISC
void *memccpy(void *restrict dest, const void *restrict src, int c, size_t n);
#endif
#if defined __USE_MISC
void explicit_bzero(void *s, size_t n);
#endif

#endif
