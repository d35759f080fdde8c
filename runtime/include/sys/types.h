/* omp2gpu <sys/types.h>: the POSIX types; the other POSIX headers include it (glibc x86-64). */
#ifndef __OMP2GPU_SYS_TYPES_H
#define __OMP2GPU_SYS_TYPES_H

#ifndef __OMP2GPU_SIZE_T
#define __OMP2GPU_SIZE_T
typedef unsigned long size_t;
#endif
#ifndef __OMP2GPU_SSIZE_T
#define __OMP2GPU_SSIZE_T
typedef long ssize_t;
#endif
#ifndef __OMP2GPU_TIME_T
#define __OMP2GPU_TIME_T
typedef long time_t;
#endif
#ifndef __OMP2GPU_CLOCK_T
#define __OMP2GPU_CLOCK_T
typedef long clock_t;
#endif
#ifndef __OMP2GPU_CLOCKID_T
#define __OMP2GPU_CLOCKID_T
typedef int clockid_t;
#endif
#ifndef __OMP2GPU_SUSECONDS_T
#define __OMP2GPU_SUSECONDS_T
typedef long suseconds_t;
#endif
#ifndef __OMP2GPU_PID_T
#define __OMP2GPU_PID_T
typedef int pid_t;
#endif
#ifndef __OMP2GPU_OFF_T
#define __OMP2GPU_OFF_T
typedef long off_t;
#endif
#ifndef __OMP2GPU_ID_TYPES
#define __OMP2GPU_ID_TYPES
typedef unsigned int uid_t;
typedef unsigned int gid_t;
typedef unsigned int mode_t;
typedef unsigned long dev_t;
typedef unsigned long ino_t;
typedef unsigned long nlink_t;
typedef long blksize_t;
typedef long blkcnt_t;
typedef unsigned int id_t;
typedef int key_t;
typedef unsigned long fsblkcnt_t;
typedef unsigned long fsfilcnt_t;
#endif
#ifndef __OMP2GPU_USECONDS_T
#define __OMP2GPU_USECONDS_T
typedef unsigned int useconds_t;
#endif

#endif
