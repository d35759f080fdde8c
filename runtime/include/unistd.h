/* omp2gpu <unistd.h>: a minimal POSIX subset (glibc x86-64). */
#ifndef __OMP2GPU_UNISTD_H
#define __OMP2GPU_UNISTD_H

#ifndef __OMP2GPU_SIZE_T
#define __OMP2GPU_SIZE_T
typedef unsigned long size_t;
#endif
#ifndef __OMP2GPU_SSIZE_T
#define __OMP2GPU_SSIZE_T
typedef long ssize_t;
#endif
#ifndef __OMP2GPU_PID_T
#define __OMP2GPU_PID_T
typedef int pid_t;
#endif
#ifndef __OMP2GPU_OFF_T
#define __OMP2GPU_OFF_T
typedef long off_t;
#endif
typedef unsigned int useconds_t;
#ifndef NULL
#define NULL ((void *)0)
#endif

#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2
#define R_OK 4
#define W_OK 2
#define X_OK 1
#define F_OK 0
#define _SC_CLK_TCK 2
#define _SC_PAGESIZE 30
#define _SC_PAGE_SIZE _SC_PAGESIZE
#define _SC_NPROCESSORS_CONF 83
#define _SC_NPROCESSORS_ONLN 84

ssize_t read(int fd, void *buf, size_t count);
ssize_t write(int fd, const void *buf, size_t count);
off_t lseek(int fd, off_t offset, int whence);
int close(int fd);
int access(const char *pathname, int mode);
int unlink(const char *pathname);
char *getcwd(char *buf, size_t size);
int isatty(int fd);
unsigned int sleep(unsigned int seconds);
int usleep(useconds_t usec);
pid_t getpid(void);
long sysconf(int name);
int gethostname(char *name, size_t len);

#endif
