/* omp2gpu <unistd.h>: POSIX system interface (glibc x86-64 values). */
#ifndef __OMP2GPU_UNISTD_H
#define __OMP2GPU_UNISTD_H

#include <sys/types.h>
#include <getopt.h>
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
#define F_ULOCK 0
#define F_LOCK 1
#define F_TLOCK 2
#define F_TEST 3

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

extern char **environ;

ssize_t read(int fd, void *buf, size_t count);
ssize_t write(int fd, const void *buf, size_t count);
ssize_t pread(int fd, void *buf, size_t count, off_t offset);
ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset);
off_t lseek(int fd, off_t offset, int whence);
int close(int fd);
int dup(int fd);
int dup2(int fd, int fd2);
int pipe(int fds[2]);
int fsync(int fd);
int fdatasync(int fd);
int ftruncate(int fd, off_t length);
int truncate(const char *path, off_t length);
int access(const char *pathname, int mode);
int faccessat(int dirfd, const char *pathname, int mode, int flags);
int unlink(const char *pathname);
int unlinkat(int dirfd, const char *pathname, int flags);
int rmdir(const char *path);
int link(const char *from, const char *to);
int symlink(const char *from, const char *to);
ssize_t readlink(const char *restrict path, char *restrict buf, size_t len);
int chdir(const char *path);
int fchdir(int fd);
char *getcwd(char *buf, size_t size);
int chown(const char *file, uid_t owner, gid_t group);
int fchown(int fd, uid_t owner, gid_t group);
int lchown(const char *file, uid_t owner, gid_t group);
int isatty(int fd);
char *ttyname(int fd);
unsigned int sleep(unsigned int seconds);
int usleep(useconds_t usec);
unsigned int alarm(unsigned int seconds);
int pause(void);
pid_t getpid(void);
pid_t getppid(void);
pid_t getpgrp(void);
pid_t setsid(void);
int setpgid(pid_t pid, pid_t pgid);
uid_t getuid(void);
uid_t geteuid(void);
gid_t getgid(void);
gid_t getegid(void);
int setuid(uid_t uid);
int setgid(gid_t gid);
pid_t fork(void);
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
int gethostname(char *name, size_t len);
char *getlogin(void);
int getpagesize(void);
int nice(int inc);
void sync(void);
int lockf(int fd, int cmd, off_t len);
void *sbrk(long delta);

#endif
