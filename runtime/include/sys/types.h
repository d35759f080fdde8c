/* omp2gpu <sys/types.h>: the POSIX types (glibc x86-64), each visible where glibc's is. */
#ifndef __OMP2GPU_SYS_TYPES_H
#define __OMP2GPU_SYS_TYPES_H

#include <features.h>

#ifndef __OMP2GPU_SIZE_T
#define __OMP2GPU_SIZE_T
typedef unsigned long size_t;
#endif
#ifndef __OMP2GPU_SSIZE_T
#define __OMP2GPU_SSIZE_T
typedef long ssize_t;
#endif
#include <bits/types/time_t.h>
#if defined __USE_XOPEN || defined __USE_XOPEN2K8
#ifndef __OMP2GPU_CLOCK_T
#define __OMP2GPU_CLOCK_T
typedef long clock_t;
#endif
#endif
#ifndef __OMP2GPU_CLOCKID_T
#define __OMP2GPU_CLOCKID_T
typedef int clockid_t;
#endif
#if defined __USE_XOPEN || defined __USE_MISC
#ifndef __OMP2GPU_SUSECONDS_T
#define __OMP2GPU_SUSECONDS_T
typedef long suseconds_t;
#endif
#endif
#ifndef __OMP2GPU_PID_T
#define __OMP2GPU_PID_T
typedef int pid_t;
#endif
#ifndef __OMP2GPU_OFF_T
#define __OMP2GPU_OFF_T
typedef long off_t;
#endif
#ifndef __OMP2GPU_UID_T
#define __OMP2GPU_UID_T
typedef unsigned int uid_t;
#endif
#ifndef __OMP2GPU_GID_T
#define __OMP2GPU_GID_T
typedef unsigned int gid_t;
#endif
#ifndef __OMP2GPU_MODE_T
#define __OMP2GPU_MODE_T
typedef unsigned int mode_t;
#endif
#ifndef __OMP2GPU_DEV_T
#define __OMP2GPU_DEV_T
typedef unsigned long dev_t;
#endif
#ifndef __OMP2GPU_INO_T
#define __OMP2GPU_INO_T
typedef unsigned long ino_t;
#endif
#ifndef __OMP2GPU_NLINK_T
#define __OMP2GPU_NLINK_T
typedef unsigned long nlink_t;
#endif
#ifndef __OMP2GPU_BLKCNT_T
#define __OMP2GPU_BLKCNT_T
typedef long blkcnt_t;
#endif
#ifndef __OMP2GPU_FSBLKCNT_T
#define __OMP2GPU_FSBLKCNT_T
typedef unsigned long fsblkcnt_t;
#endif
#ifndef __OMP2GPU_FSFILCNT_T
#define __OMP2GPU_FSFILCNT_T
typedef unsigned long fsfilcnt_t;
#endif
#if defined __USE_XOPEN_EXTENDED || defined __USE_XOPEN2K8
#ifndef __OMP2GPU_BLKSIZE_T
#define __OMP2GPU_BLKSIZE_T
typedef long blksize_t;
#endif
#endif
#if defined __USE_XOPEN || defined __USE_XOPEN2K8
#ifndef __OMP2GPU_ID_T
#define __OMP2GPU_ID_T
typedef unsigned int id_t;
#endif
#endif
#if defined __USE_XOPEN || defined __USE_MISC
#ifndef __OMP2GPU_KEY_T
#define __OMP2GPU_KEY_T
typedef int key_t;
#endif
#endif
#ifdef __USE_XOPEN
#ifndef __OMP2GPU_USECONDS_T
#define __OMP2GPU_USECONDS_T
typedef unsigned int useconds_t;
#endif
#endif

/* BSD names: fd_set and select, and with them struct timeval and struct timespec
 * (what <stdlib.h> shows in gcc's default mode: glibc includes us there). */
#ifdef __USE_MISC
#include <sys/select.h>
#endif

#endif
