/* omp2gpu <pthread.h>: the POSIX threads subset the CPU device's worker pool
 * uses (runtime/cpu_device/), with glibc x86-64's sizes and alignments, so the
 * calls go straight to the C library. The static initialisers are glibc's
 * (all zero bytes for the default kinds); each union's first member is the
 * widest-aligned one, which `{ { 0 } }` initialises. */
#ifndef __OMP2GPU_PTHREAD_H
#define __OMP2GPU_PTHREAD_H

#include <features.h>
#include <sched.h>
#include <time.h>

typedef unsigned long pthread_t;
typedef unsigned int pthread_key_t;
typedef union { long __align; char __size[56]; } pthread_attr_t;
typedef union { long __align; char __size[40]; } pthread_mutex_t;
typedef union { int __align; char __size[4]; } pthread_mutexattr_t;
typedef union { long long __align; char __size[48]; } pthread_cond_t;
typedef union { int __align; char __size[4]; } pthread_condattr_t;
typedef int pthread_once_t;
#if defined __USE_XOPEN_EXTENDED || defined __USE_XOPEN2K
typedef union { long __align; char __size[56]; } pthread_rwlock_t;
typedef union { long __align; char __size[8]; } pthread_rwlockattr_t;
#endif
#if defined __USE_XOPEN2K
typedef union { long __align; char __size[32]; } pthread_barrier_t;
typedef union { int __align; char __size[4]; } pthread_barrierattr_t;
typedef volatile int pthread_spinlock_t;
#endif

#define PTHREAD_ONCE_INIT 0
#define PTHREAD_MUTEX_INITIALIZER { { 0 } }
#define PTHREAD_COND_INITIALIZER { { 0 } }
#if defined __USE_XOPEN_EXTENDED || defined __USE_XOPEN2K
#define PTHREAD_RWLOCK_INITIALIZER { { 0 } }
#endif
#if defined __USE_XOPEN2K
#define PTHREAD_BARRIER_SERIAL_THREAD (-1)
#endif
#define PTHREAD_CANCELED ((void *) -1)
#define PTHREAD_CREATE_JOINABLE 0
#define PTHREAD_CREATE_DETACHED 1
#if defined __USE_XOPEN_EXTENDED || defined __USE_XOPEN2K8
#define PTHREAD_MUTEX_NORMAL 0
#define PTHREAD_MUTEX_RECURSIVE 1
#define PTHREAD_MUTEX_ERRORCHECK 2
#define PTHREAD_MUTEX_DEFAULT PTHREAD_MUTEX_NORMAL
#endif
#define PTHREAD_PROCESS_PRIVATE 0
#define PTHREAD_PROCESS_SHARED 1
#define PTHREAD_SCOPE_SYSTEM 0
#define PTHREAD_SCOPE_PROCESS 1
#define PTHREAD_CANCEL_ENABLE 0
#define PTHREAD_CANCEL_DISABLE 1
#define PTHREAD_CANCEL_DEFERRED 0
#define PTHREAD_CANCEL_ASYNCHRONOUS 1

int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                   void *(*start_routine)(void *), void *arg);
int pthread_join(pthread_t thread, void **result);
int pthread_detach(pthread_t thread);
pthread_t pthread_self(void);
int pthread_equal(pthread_t a, pthread_t b);
void pthread_exit(void *result);

int pthread_attr_init(pthread_attr_t *attr);
int pthread_attr_destroy(pthread_attr_t *attr);
int pthread_attr_setstacksize(pthread_attr_t *attr, size_t stacksize);
int pthread_attr_getstacksize(const pthread_attr_t *restrict attr, size_t *restrict stacksize);
int pthread_attr_setdetachstate(pthread_attr_t *attr, int detachstate);
int pthread_attr_getdetachstate(const pthread_attr_t *attr, int *detachstate);
int pthread_cancel(pthread_t thread);
int pthread_setcancelstate(int state, int *oldstate);
int pthread_setcanceltype(int type, int *oldtype);
void pthread_testcancel(void);
int pthread_setschedparam(pthread_t thread, int policy, const struct sched_param *param);
int pthread_getschedparam(pthread_t thread, int *restrict policy, struct sched_param *restrict param);

int pthread_mutex_init(pthread_mutex_t *mutex, const pthread_mutexattr_t *attr);
int pthread_mutex_destroy(pthread_mutex_t *mutex);
int pthread_mutex_lock(pthread_mutex_t *mutex);
int pthread_mutex_trylock(pthread_mutex_t *mutex);
int pthread_mutex_unlock(pthread_mutex_t *mutex);
#if defined __USE_XOPEN2K
int pthread_mutex_timedlock(pthread_mutex_t *restrict mutex, const struct timespec *restrict abstime);
#endif
int pthread_mutexattr_init(pthread_mutexattr_t *attr);
int pthread_mutexattr_destroy(pthread_mutexattr_t *attr);
#if defined __USE_XOPEN_EXTENDED || defined __USE_XOPEN2K8
int pthread_mutexattr_settype(pthread_mutexattr_t *attr, int kind);
int pthread_mutexattr_gettype(const pthread_mutexattr_t *restrict attr, int *restrict kind);
#endif
int pthread_mutexattr_setpshared(pthread_mutexattr_t *attr, int pshared);

int pthread_cond_init(pthread_cond_t *cond, const pthread_condattr_t *attr);
int pthread_cond_destroy(pthread_cond_t *cond);
int pthread_cond_wait(pthread_cond_t *cond, pthread_mutex_t *mutex);
int pthread_cond_signal(pthread_cond_t *cond);
int pthread_cond_broadcast(pthread_cond_t *cond);
int pthread_cond_timedwait(pthread_cond_t *restrict cond, pthread_mutex_t *restrict mutex,
                           const struct timespec *restrict abstime);
int pthread_condattr_init(pthread_condattr_t *attr);
int pthread_condattr_destroy(pthread_condattr_t *attr);

#if defined __USE_XOPEN_EXTENDED || defined __USE_XOPEN2K
int pthread_rwlock_init(pthread_rwlock_t *restrict rwlock, const pthread_rwlockattr_t *restrict attr);
int pthread_rwlock_destroy(pthread_rwlock_t *rwlock);
int pthread_rwlock_rdlock(pthread_rwlock_t *rwlock);
int pthread_rwlock_tryrdlock(pthread_rwlock_t *rwlock);
int pthread_rwlock_wrlock(pthread_rwlock_t *rwlock);
int pthread_rwlock_trywrlock(pthread_rwlock_t *rwlock);
int pthread_rwlock_unlock(pthread_rwlock_t *rwlock);
#endif

#if defined __USE_XOPEN2K
int pthread_barrier_init(pthread_barrier_t *restrict barrier,
                         const pthread_barrierattr_t *restrict attr, unsigned int count);
int pthread_barrier_destroy(pthread_barrier_t *barrier);
int pthread_barrier_wait(pthread_barrier_t *barrier);
#endif

#if defined __USE_XOPEN2K
int pthread_spin_init(pthread_spinlock_t *lock, int pshared);
int pthread_spin_destroy(pthread_spinlock_t *lock);
int pthread_spin_lock(pthread_spinlock_t *lock);
int pthread_spin_trylock(pthread_spinlock_t *lock);
int pthread_spin_unlock(pthread_spinlock_t *lock);
#endif

int pthread_key_create(pthread_key_t *key, void (*destructor)(void *));
int pthread_key_delete(pthread_key_t key);
void *pthread_getspecific(pthread_key_t key);
int pthread_setspecific(pthread_key_t key, const void *value);

int pthread_once(pthread_once_t *once, void (*init_routine)(void));

#endif
