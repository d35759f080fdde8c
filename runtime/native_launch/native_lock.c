/* The native launch path's one lock (native_launch.h): a recursive mutex, since the
 * launcher's calls nest, that the Python launcher also holds for each of its calls
 * (omp2gpu/offload/launcher_lock.py). Every other file of the path takes it; it calls
 * none of them. */
#include <pthread.h>
#include "native_launch.h"

static pthread_mutex_t table_lock;

/* Once, when the module is loaded (mirror.c's __omp2gpu_native_start). */
void native_lock_start(void) {
    pthread_mutexattr_t attributes;
    pthread_mutexattr_init(&attributes);
    pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&table_lock, &attributes);
    pthread_mutexattr_destroy(&attributes);
}

void native_lock(void) { pthread_mutex_lock(&table_lock); }
void native_unlock(void) { pthread_mutex_unlock(&table_lock); }
void __omp2gpu_native_lock(void) { native_lock(); }
void __omp2gpu_native_unlock(void) { native_unlock(); }
