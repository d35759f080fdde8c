/* The runtime's one lock: recursive (an entry point may call another, registering a
 * global binds it on devices in use), taken by every entry point and by image
 * registration, so the device table, the present tables and the images are never seen
 * half-changed by another host thread. */
#include <pthread.h>
#include "offload.h"

static pthread_mutex_t lock;
static pthread_once_t lock_made = PTHREAD_ONCE_INIT;

static void make_lock(void) {
    pthread_mutexattr_t attributes;
    pthread_mutexattr_init(&attributes);
    pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&lock, &attributes);
    pthread_mutexattr_destroy(&attributes);
}

void offload_lock(void) {
    pthread_once(&lock_made, make_lock);
    pthread_mutex_lock(&lock);
}

void offload_unlock(void) { pthread_mutex_unlock(&lock); }
