/* omp2gpu <limits.h>: x86-64 Linux (char is signed, long is 64 bits). */
#ifndef __OMP2GPU_LIMITS_H
#define __OMP2GPU_LIMITS_H

#include <features.h>

#define CHAR_BIT 8
#define MB_LEN_MAX 16
#define SCHAR_MIN (-128)
#define SCHAR_MAX 127
#define UCHAR_MAX 255
#define CHAR_MIN SCHAR_MIN
#define CHAR_MAX SCHAR_MAX
#define SHRT_MIN (-32768)
#define SHRT_MAX 32767
#define USHRT_MAX 65535
#define INT_MIN (-INT_MAX - 1)
#define INT_MAX 2147483647
#define UINT_MAX 4294967295U
#define LONG_MIN (-LONG_MAX - 1L)
#define LONG_MAX 9223372036854775807L
#define ULONG_MAX 18446744073709551615UL
#if defined __USE_ISOC99
#define LLONG_MIN (-LLONG_MAX - 1LL)
#define LLONG_MAX 9223372036854775807LL
#define ULLONG_MAX 18446744073709551615ULL
#endif

/* POSIX values glibc provides by default. */
#if defined __USE_POSIX
#define PATH_MAX 4096
#define SSIZE_MAX LONG_MAX
#endif

#endif
