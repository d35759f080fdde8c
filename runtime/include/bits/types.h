/* omp2gpu: the reserved spellings of the POSIX types (glibc's __uid_t, ...), for
 * prototypes in headers that may not show the plain names in every mode. */
#ifndef __OMP2GPU_BITS_TYPES_H
#define __OMP2GPU_BITS_TYPES_H
typedef unsigned int __uid_t;
typedef unsigned int __gid_t;
typedef int __pid_t;
typedef long __off_t;
typedef unsigned int __useconds_t;
typedef unsigned int __mode_t;
typedef unsigned long __dev_t;
typedef unsigned long __ino_t;
typedef unsigned long __nlink_t;
typedef long __blksize_t;
typedef long __blkcnt_t;
typedef unsigned int __id_t;
typedef int __key_t;
typedef long __clock_t;
typedef long __suseconds_t;
typedef int __clockid_t;
#endif
