/* omp2gpu <sys/select.h>: select, pselect and fd_set (glibc x86-64: 1024 descriptors,
 * an array of longs). glibc's <sys/types.h> brings it in for BSD names (__USE_MISC),
 * which is how <stdlib.h> shows struct timeval and struct timespec in gcc's default mode. */
#ifndef __OMP2GPU_SYS_SELECT_H
#define __OMP2GPU_SYS_SELECT_H

#include <features.h>
#include <bits/types/sigset_t.h>
#include <bits/types/time_t.h>
#ifndef __OMP2GPU_SUSECONDS_T
#define __OMP2GPU_SUSECONDS_T
typedef long suseconds_t;
#endif
#include <bits/types/struct_timeval.h>
#ifdef __USE_XOPEN2K
#include <bits/types/struct_timespec.h>
#endif

typedef long __fd_mask;
#define __NFDBITS (8 * (int)sizeof(__fd_mask))
#define FD_SETSIZE 1024

/* X/Open names the member; otherwise it is reserved. */
#ifdef __USE_XOPEN
typedef struct { __fd_mask fds_bits[FD_SETSIZE / __NFDBITS]; } fd_set;
#define __FDS_BITS(set) ((set)->fds_bits)
#else
typedef struct { __fd_mask __fds_bits[FD_SETSIZE / __NFDBITS]; } fd_set;
#define __FDS_BITS(set) ((set)->__fds_bits)
#endif

#ifdef __USE_MISC
typedef __fd_mask fd_mask;
#define NFDBITS __NFDBITS
#endif

#define __FD_MASK(d) ((__fd_mask)(1UL << ((d) % __NFDBITS)))
#define FD_SET(d, set) ((void)(__FDS_BITS(set)[(d) / __NFDBITS] |= __FD_MASK(d)))
#define FD_CLR(d, set) ((void)(__FDS_BITS(set)[(d) / __NFDBITS] &= ~__FD_MASK(d)))
#define FD_ISSET(d, set) ((__FDS_BITS(set)[(d) / __NFDBITS] & __FD_MASK(d)) != 0)
#define FD_ZERO(set) do { \
    unsigned int __i; \
    for (__i = 0; __i < sizeof(fd_set) / sizeof(__fd_mask); ++__i) __FDS_BITS(set)[__i] = 0; \
  } while (0)

int select(int nfds, fd_set *restrict readfds, fd_set *restrict writefds,
           fd_set *restrict exceptfds, struct timeval *restrict timeout);
#ifdef __USE_XOPEN2K
int pselect(int nfds, fd_set *restrict readfds, fd_set *restrict writefds,
            fd_set *restrict exceptfds, const struct timespec *restrict timeout,
            const sigset_t *restrict sigmask);
#endif

#endif
