/* omp2gpu <sys/wait.h>: waiting for child processes (glibc x86-64). */
#ifndef __OMP2GPU_SYS_WAIT_H
#define __OMP2GPU_SYS_WAIT_H
#include <bits/types.h>

#include <features.h>
#include <sys/types.h>
/* glibc's brings in <signal.h> (sigset_t, struct timespec, ...) for X/Open and POSIX.1-2008 */
#if defined __USE_XOPEN || defined __USE_XOPEN2K8
#include <signal.h>
#include <sys/select.h>
#endif

#define WNOHANG 1
#define WUNTRACED 2
#define WSTOPPED 2
#define WEXITED 4
#define WCONTINUED 8
#define WNOWAIT 0x01000000
#define WEXITSTATUS(status) (((status) & 0xff00) >> 8)
#define WTERMSIG(status) ((status) & 0x7f)
#define WSTOPSIG(status) WEXITSTATUS(status)
#define WIFEXITED(status) (WTERMSIG(status) == 0)
#define WIFSIGNALED(status) (((signed char) (((status) & 0x7f) + 1) >> 1) > 0)
#define WIFSTOPPED(status) (((status) & 0xff) == 0x7f)
#define WIFCONTINUED(status) ((status) == 0xffff)
#define WCOREDUMP(status) ((status) & 0x80)

__pid_t wait(int *status);
__pid_t waitpid(__pid_t pid, int *status, int options);

#endif
