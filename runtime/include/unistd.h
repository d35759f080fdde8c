/* omp2gpu <unistd.h>: POSIX system interface (glibc x86-64 values). */
#ifndef __OMP2GPU_UNISTD_H
#define __OMP2GPU_UNISTD_H

#include <features.h>

#include <bits/types.h>
#ifndef __OMP2GPU_SIZE_T
#define __OMP2GPU_SIZE_T
typedef unsigned long size_t;
#endif
#ifndef __OMP2GPU_SSIZE_T
#define __OMP2GPU_SSIZE_T
typedef long ssize_t;
#endif
/* glibc's <unistd.h> names these for X/Open and POSIX.1-2001 (prototypes use __uid_t...) */
#if defined __USE_XOPEN || defined __USE_XOPEN2K
#ifndef __OMP2GPU_UID_T
#define __OMP2GPU_UID_T
typedef unsigned int uid_t;
#endif
#ifndef __OMP2GPU_GID_T
#define __OMP2GPU_GID_T
typedef unsigned int gid_t;
#endif
#ifndef __OMP2GPU_PID_T
#define __OMP2GPU_PID_T
typedef int pid_t;
#endif
#ifndef __OMP2GPU_OFF_T
#define __OMP2GPU_OFF_T
typedef long off_t;
#endif
#ifndef __OMP2GPU_USECONDS_T
#define __OMP2GPU_USECONDS_T
typedef unsigned int useconds_t;
#endif
#endif
#ifdef __USE_POSIX2
#include <bits/getopt_core.h>
#endif
#ifndef NULL
#define NULL ((void *)0)
#endif

#define _POSIX_VERSION 200809L
#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2
#define R_OK 4
#define W_OK 2
#define X_OK 1
#define F_OK 0
#ifndef SEEK_SET
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#endif
#if defined __USE_XOPEN_EXTENDED || defined __USE_MISC
#define F_ULOCK 0
#define F_LOCK 1
#define F_TLOCK 2
#define F_TEST 3
#endif

#define _SC_ARG_MAX 0
#define _SC_CHILD_MAX 1
#define _SC_CLK_TCK 2
#define _SC_NGROUPS_MAX 3
#define _SC_OPEN_MAX 4
#define _SC_PAGESIZE 30
#define _SC_PAGE_SIZE _SC_PAGESIZE
#define _SC_NPROCESSORS_CONF 83
#define _SC_NPROCESSORS_ONLN 84
#define _SC_PHYS_PAGES 85
#define _SC_AVPHYS_PAGES 86
#define _SC_LEVEL1_DCACHE_LINESIZE 190
#define _PC_NAME_MAX 3
#define _PC_PATH_MAX 4

#if defined __USE_GNU
extern char **environ;
#endif

ssize_t read(int fd, void *buf, size_t count);
ssize_t write(int fd, const void *buf, size_t count);
#if defined __USE_XOPEN_EXTENDED || defined __USE_XOPEN2K8
ssize_t pread(int fd, void *buf, size_t count, __off_t offset);
ssize_t pwrite(int fd, const void *buf, size_t count, __off_t offset);
#endif
__off_t lseek(int fd, __off_t offset, int whence);
int close(int fd);
int dup(int fd);
int dup2(int fd, int fd2);
int pipe(int fds[2]);
int fsync(int fd);
#if defined __USE_POSIX199309
int fdatasync(int fd);
int ftruncate(int fd, __off_t length);
#endif
#if defined __USE_XOPEN_EXTENDED || defined __USE_XOPEN2K8
int truncate(const char *path, __off_t length);
#endif
int access(const char *pathname, int mode);
#if defined __USE_XOPEN2K8
int faccessat(int dirfd, const char *pathname, int mode, int flags);
#endif
int unlink(const char *pathname);
#if defined __USE_XOPEN2K8
int unlinkat(int dirfd, const char *pathname, int flags);
#endif
int rmdir(const char *path);
int link(const char *from, const char *to);
#if defined __USE_XOPEN_EXTENDED || defined __USE_XOPEN2K
int symlink(const char *from, const char *to);
ssize_t readlink(const char *restrict path, char *restrict buf, size_t len);
#endif
int chdir(const char *path);
#if defined __USE_XOPEN_EXTENDED || defined __USE_XOPEN2K8
int fchdir(int fd);
#endif
char *getcwd(char *buf, size_t size);
int chown(const char *file, __uid_t owner, __gid_t group);
#if defined __USE_XOPEN_EXTENDED || defined __USE_XOPEN2K8
int fchown(int fd, __uid_t owner, __gid_t group);
int lchown(const char *file, __uid_t owner, __gid_t group);
#endif
int isatty(int fd);
char *ttyname(int fd);
unsigned int sleep(unsigned int seconds);
#if (defined __USE_XOPEN_EXTENDED && !defined __USE_XOPEN2K8) || defined __USE_MISC
int usleep(__useconds_t usec);
#endif
unsigned int alarm(unsigned int seconds);
int pause(void);
__pid_t getpid(void);
__pid_t getppid(void);
__pid_t getpgrp(void);
__pid_t setsid(void);
int setpgid(__pid_t pid, __pid_t pgid);
__uid_t getuid(void);
__uid_t geteuid(void);
__gid_t getgid(void);
__gid_t getegid(void);
int setuid(__uid_t uid);
int setgid(__gid_t gid);
__pid_t fork(void);
int execv(const char *path, char *const argv[]);
int execve(const char *path, char *const argv[], char *const envp[]);
int execvp(const char *file, char *const argv[]);
int execl(const char *path, const char *arg, ...);
int execlp(const char *file, const char *arg, ...);
int execle(const char *path, const char *arg, ...);
void _exit(int status);
long sysconf(int name);
long pathconf(const char *path, int name);
long fpathconf(int fd, int name);
#if defined __USE_XOPEN_EXTENDED || defined __USE_XOPEN2K
int gethostname(char *name, size_t len);
#endif
char *getlogin(void);
#if (defined __USE_XOPEN_EXTENDED && !defined __USE_XOPEN2K) || defined __USE_MISC
int getpagesize(void);
#endif
#if defined __USE_XOPEN || defined __USE_MISC
int nice(int inc);
#endif
#if defined __USE_XOPEN_EXTENDED || defined __USE_MISC
void sync(void);
int lockf(int fd, int cmd, __off_t len);
#endif
#if (defined __USE_XOPEN_EXTENDED && !defined __USE_XOPEN2K) || defined __USE_MISC
void *sbrk(long delta);
#endif

#endif
