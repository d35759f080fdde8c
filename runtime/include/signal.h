/* omp2gpu <signal.h>: signals (Linux x86-64 numbers, glibc layouts). */
#ifndef __OMP2GPU_SIGNAL_H
#define __OMP2GPU_SIGNAL_H
#include <bits/types.h>

#include <sys/types.h>
#include <time.h>

typedef int sig_atomic_t;
typedef void (*__sighandler_t)(int);
typedef __sighandler_t sighandler_t;
#include <bits/types/sigset_t.h>

typedef struct {
  int si_signo;
  int si_errno;
  int si_code;
  int __pad0;
  union { int __pad[28]; void *__align; struct { __pid_t si_pid; __uid_t si_uid; int si_status; } __kill; } __fields;
} siginfo_t;

union sigval { int sival_int; void *sival_ptr; };

struct sigaction {
  union {
    __sighandler_t sa_handler;
    void (*sa_sigaction)(int, siginfo_t *, void *);
  } __sigaction_handler;
  sigset_t sa_mask;
  int sa_flags;
  void (*sa_restorer)(void);
};
#define sa_handler __sigaction_handler.sa_handler
#define sa_sigaction __sigaction_handler.sa_sigaction

#define SIG_ERR ((__sighandler_t) -1)
#define SIG_DFL ((__sighandler_t) 0)
#define SIG_IGN ((__sighandler_t) 1)

#define SIGHUP 1
#define SIGINT 2
#define SIGQUIT 3
#define SIGILL 4
#define SIGTRAP 5
#define SIGABRT 6
#define SIGIOT 6
#define SIGBUS 7
#define SIGFPE 8
#define SIGKILL 9
#define SIGUSR1 10
#define SIGSEGV 11
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGSTKFLT 16
#define SIGCHLD 17
#define SIGCONT 18
#define SIGSTOP 19
#define SIGTSTP 20
#define SIGTTIN 21
#define SIGTTOU 22
#define SIGURG 23
#define SIGXCPU 24
#define SIGXFSZ 25
#define SIGVTALRM 26
#define SIGPROF 27
#define SIGWINCH 28
#define SIGIO 29
#define SIGPOLL SIGIO
#define SIGPWR 30
#define SIGSYS 31
#define NSIG 65
#define SIGRTMIN (__libc_current_sigrtmin())
#define SIGRTMAX (__libc_current_sigrtmax())

#define SA_NOCLDSTOP 1
#define SA_NOCLDWAIT 2
#define SA_SIGINFO 4
#define SA_ONSTACK 0x08000000
#define SA_RESTART 0x10000000
#define SA_NODEFER 0x40000000
#define SA_RESETHAND 0x80000000
#define SA_NOMASK SA_NODEFER
#define SA_ONESHOT SA_RESETHAND
#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

__sighandler_t signal(int sig, __sighandler_t handler);
int raise(int sig);
int kill(__pid_t pid, int sig);
int killpg(__pid_t pgrp, int sig);
void psignal(int sig, const char *s);
int sigemptyset(sigset_t *set);
int sigfillset(sigset_t *set);
int sigaddset(sigset_t *set, int signo);
int sigdelset(sigset_t *set, int signo);
int sigismember(const sigset_t *set, int signo);
int sigprocmask(int how, const sigset_t *restrict set, sigset_t *restrict oset);
int sigsuspend(const sigset_t *set);
int sigaction(int sig, const struct sigaction *restrict act, struct sigaction *restrict oact);
int sigpending(sigset_t *set);
int sigwait(const sigset_t *restrict set, int *restrict sig);
int siginterrupt(int sig, int interrupt);
int __libc_current_sigrtmin(void);
int __libc_current_sigrtmax(void);

#endif
