/* omp2gpu <sys/mman.h>: memory mappings (glibc x86-64 values). */
#ifndef __OMP2GPU_SYS_MMAN_H
#define __OMP2GPU_SYS_MMAN_H
#include <features.h>
#include <bits/types.h>

#ifndef __OMP2GPU_SIZE_T
#define __OMP2GPU_SIZE_T
typedef unsigned long size_t;
#endif
#ifndef __OMP2GPU_MODE_T
#define __OMP2GPU_MODE_T
typedef unsigned int mode_t;
#endif
#ifndef __OMP2GPU_OFF_T
#define __OMP2GPU_OFF_T
typedef long off_t;
#endif

#define PROT_NONE 0x0
#define PROT_READ 0x1
#define PROT_WRITE 0x2
#define PROT_EXEC 0x4
#define MAP_SHARED 0x01
#define MAP_PRIVATE 0x02
#if defined __USE_MISC
#define MAP_TYPE 0x0f
#endif
#define MAP_FIXED 0x10
#if defined __USE_MISC
#define MAP_ANONYMOUS 0x20
#define MAP_ANON MAP_ANONYMOUS
#define MAP_32BIT 0x40
#define MAP_GROWSDOWN 0x00100
#define MAP_DENYWRITE 0x00800
#define MAP_EXECUTABLE 0x01000
#define MAP_LOCKED 0x02000
#define MAP_NORESERVE 0x04000
#define MAP_POPULATE 0x08000
#define MAP_NONBLOCK 0x10000
#define MAP_STACK 0x20000
#define MAP_HUGETLB 0x40000
#endif
#define MAP_FAILED ((void *) -1)
#define MS_ASYNC 1
#define MS_INVALIDATE 2
#define MS_SYNC 4
#define MCL_CURRENT 1
#define MCL_FUTURE 2
#if defined __USE_MISC
#define MADV_NORMAL 0
#define MADV_RANDOM 1
#define MADV_SEQUENTIAL 2
#define MADV_WILLNEED 3
#define MADV_DONTNEED 4
#define MADV_FREE 8
#define MADV_HUGEPAGE 14
#define MADV_NOHUGEPAGE 15
#endif
#if defined __USE_XOPEN2K
#define POSIX_MADV_NORMAL 0
#define POSIX_MADV_RANDOM 1
#define POSIX_MADV_SEQUENTIAL 2
#define POSIX_MADV_WILLNEED 3
#define POSIX_MADV_DONTNEED 4
#endif

void *mmap(void *addr, size_t len, int prot, int flags, int fd, __off_t offset);
int munmap(void *addr, size_t len);
int mprotect(void *addr, size_t len, int prot);
int msync(void *addr, size_t len, int flags);
#if defined __USE_MISC
int madvise(void *addr, size_t len, int advice);
#endif
#if defined __USE_XOPEN2K
int posix_madvise(void *addr, size_t len, int advice);
#endif
int mlock(const void *addr, size_t len);
int munlock(const void *addr, size_t len);
int mlockall(int flags);
int munlockall(void);
int shm_open(const char *name, int oflag, __mode_t mode);
int shm_unlink(const char *name);

#endif
