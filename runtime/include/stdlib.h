/* omp2gpu <stdlib.h>: glibc x86-64 prototypes (no long double functions:
 * omp2gpu computes long double as double, which glibc's ABI does not). */
#ifndef __OMP2GPU_STDLIB_H
#define __OMP2GPU_STDLIB_H

#include <features.h>

#ifndef __OMP2GPU_SIZE_T
#define __OMP2GPU_SIZE_T
typedef unsigned long size_t;
#endif
#ifndef __OMP2GPU_WCHAR_T
#define __OMP2GPU_WCHAR_T
typedef int wchar_t;
#endif
#ifndef NULL
#define NULL ((void *)0)
#endif

typedef struct { int quot; int rem; } div_t;
typedef struct { long quot; long rem; } ldiv_t;
#if defined __USE_ISOC99
typedef struct { long long quot; long long rem; } lldiv_t;
#endif

/* glibc's <stdlib.h> includes <sys/types.h> for BSD names (and so fd_set, struct
 * timeval and struct timespec: <sys/select.h>) */
#if defined __USE_XOPEN_EXTENDED || defined __USE_MISC
#include <sys/types.h>
#endif

#define EXIT_FAILURE 1
#define EXIT_SUCCESS 0
#define RAND_MAX 2147483647
extern size_t __ctype_get_mb_cur_max(void);
#define MB_CUR_MAX (__ctype_get_mb_cur_max())

double atof(const char *nptr);
int atoi(const char *nptr);
long atol(const char *nptr);
#if defined __USE_ISOC99
long long atoll(const char *nptr);
#endif
double strtod(const char *restrict nptr, char **restrict endptr);
#if defined __USE_ISOC99
long double strtold(const char *restrict nptr, char **restrict endptr);
float strtof(const char *restrict nptr, char **restrict endptr);
#endif
long strtol(const char *restrict nptr, char **restrict endptr, int base);
#if defined __USE_ISOC99
long long strtoll(const char *restrict nptr, char **restrict endptr, int base);
#endif
unsigned long strtoul(const char *restrict nptr, char **restrict endptr, int base);
#if defined __USE_ISOC99
unsigned long long strtoull(const char *restrict nptr, char **restrict endptr, int base);
#endif

int rand(void);
void srand(unsigned int seed);
#if defined __USE_POSIX199506
int rand_r(unsigned int *seed);
#endif
#if defined __USE_XOPEN || defined __USE_MISC
double drand48(void);
double erand48(unsigned short xsubi[3]);
long lrand48(void);
long nrand48(unsigned short xsubi[3]);
long mrand48(void);
void srand48(long seedval);
#endif
#if defined __USE_XOPEN_EXTENDED || defined __USE_MISC
long random(void);
void srandom(unsigned int seed);
#endif

void *malloc(size_t size);
void *calloc(size_t nmemb, size_t size);
void *realloc(void *ptr, size_t size);
void free(void *ptr);
#if defined __USE_ISOC11
void *aligned_alloc(size_t alignment, size_t size);
#endif
#if defined __USE_XOPEN2K
int posix_memalign(void **memptr, size_t alignment, size_t size);
#endif

void abort(void);
/* glibc does not export atexit (it lives in libc_nonshared.a): go through
 * the exported __cxa_atexit, as libc_nonshared's atexit does. */
int atexit(void (*func)(void));
int __cxa_atexit(void (*func)(void *), void *arg, void *dso_handle);
#define atexit(func) __cxa_atexit((void (*)(void *))(func), (void *)0, (void *)0)
void exit(int status);
void _Exit(int status);
char *getenv(const char *name);
#if defined __USE_XOPEN2K
int setenv(const char *name, const char *value, int overwrite);
int unsetenv(const char *name);
#endif
int system(const char *string);

void *bsearch(const void *key, const void *base, size_t nmemb, size_t size,
              int (*compar)(const void *, const void *));
void qsort(void *base, size_t nmemb, size_t size,
           int (*compar)(const void *, const void *));

int abs(int j);
long labs(long j);
#if defined __USE_ISOC99
long long llabs(long long j);
#endif
div_t div(int numer, int denom);
ldiv_t ldiv(long numer, long denom);
#if defined __USE_ISOC99
lldiv_t lldiv(long long numer, long long denom);
#endif

#endif
