/* Detached tasks completed by a helper thread, as a code overlapping asynchronous I/O
 * or communication with computation does: each request task posts its request to a
 * queue and ends, detached (detach(event)); a progress thread outside the OpenMP team
 * (a pthread) serves the queue and calls omp_fulfill_event when a request is done.
 * Tasks that depend on a request's buffer (depend(in)) start only once its event is
 * fulfilled; the taskwait at the end waits for every detached task. OpenMP 5.0 detach. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define REQUESTS 16
#define SIZE 128

struct request {
    int id;
    int data[SIZE];
    omp_event_handle_t done;
    int posted;
};

static struct request requests[REQUESTS];
static long checksums[REQUESTS];

/* The queue between the tasks and the progress thread. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t posted = PTHREAD_COND_INITIALIZER;
static int queue[REQUESTS];
static int queued, served;

static void post(int id, omp_event_handle_t event)
{
    pthread_mutex_lock(&lock);
    requests[id].done = event;
    requests[id].posted = 1;
    queue[queued++] = id;
    pthread_cond_signal(&posted);
    pthread_mutex_unlock(&lock);
}

static void *progress(void *arg)
{
    int seed = *(int *)arg;
    for (;;) {
        pthread_mutex_lock(&lock);
        while (served == queued && served < REQUESTS)
            pthread_cond_wait(&posted, &lock);
        if (served == REQUESTS) {
            pthread_mutex_unlock(&lock);
            return NULL;
        }
        int id = queue[served++];
        pthread_mutex_unlock(&lock);
        for (int i = 0; i < SIZE; i++)          /* "the transfer" */
            requests[id].data[i] = (id * 31 + i * seed) % 1000;
        omp_fulfill_event(requests[id].done);
    }
}

int main(int argc, char **argv)
{
    int seed = argc > 2 ? atoi(argv[2]) : 5;
    pthread_t helper;
    pthread_create(&helper, NULL, progress, &seed);
#pragma omp parallel
#pragma omp single
    {
        for (int id = 0; id < REQUESTS; id++) {
            omp_event_handle_t event;
            requests[id].id = id;
#pragma omp task detach(event) depend(out: requests[id]) firstprivate(id)
            post(id, event);
#pragma omp task depend(in: requests[id]) firstprivate(id)
            {
                long sum = 0;
                for (int i = 0; i < SIZE; i++)
                    sum += requests[id].data[i] * (i % 3 + 1);
                checksums[id] = sum;
            }
        }
#pragma omp taskwait
    }
    pthread_join(helper, NULL);
    long total = 0;
    for (int id = 0; id < REQUESTS; id++) {
        printf("request %2d: checksum %ld\n", id, checksums[id]);
        total += checksums[id];
    }
    printf("total %ld, served %d\n", total, served);
    return 0;
}
