/* A double-buffered producer/filter/consumer pipeline whose dependences are depend
 * objects: one omp_depend_t per buffer and role is set up once with the depobj
 * construct, the tasks name them with depend(depobj: ...), an update switches an
 * object's type between phases, and destroy releases them at the end. The frames are
 * a structure of arrays filled by the producer, smoothed by the filter and reduced by
 * the consumer, in frame order per buffer. OpenMP 5.0 depobj. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define FRAMES 12
#define WIDTH 256
#define BUFFERS 2

struct frame {
    int samples[WIDTH];
    int smoothed[WIDTH];
    int id;
};

static struct frame buffer[BUFFERS];
static long results[FRAMES];
static int order[FRAMES];
static int consumed;

static void produce(struct frame *f, int id, int seed)
{
    f->id = id;
    for (int i = 0; i < WIDTH; i++)
        f->samples[i] = (i * (id + 3) + seed) % 97;
}

static void smooth(struct frame *f)
{
    for (int i = 0; i < WIDTH; i++) {
        int left = f->samples[i > 0 ? i - 1 : i], right = f->samples[i < WIDTH - 1 ? i + 1 : i];
        f->smoothed[i] = (left + 2 * f->samples[i] + right) / 4;
    }
}

static void consume(const struct frame *f)
{
    long sum = 0;
    for (int i = 0; i < WIDTH; i++)
        sum += (long)f->smoothed[i] * (i % 5 + 1);
    results[f->id] = sum;
    order[consumed++] = f->id;
}

/* A frame's three tasks; the depend objects come by value (an omp_depend_t is a
 * handle: its copy names the same dependence). */
static void schedule_frame(struct frame *f, int id, int seed, omp_depend_t write, omp_depend_t read,
                           omp_depend_t log)
{
#pragma omp task depend(depobj: write) firstprivate(f, id, seed)
    produce(f, id, seed);
#pragma omp task depend(depobj: write) firstprivate(f)
    smooth(f);
#pragma omp task depend(depobj: read, log) firstprivate(f)
    consume(f);
}

int main(int argc, char **argv)
{
    int seed = argc > 2 ? atoi(argv[2]) : 3;
    omp_depend_t writes[BUFFERS], reads[BUFFERS];
    omp_depend_t log_dep;

    for (int b = 0; b < BUFFERS; b++) {
#pragma omp depobj(writes[b]) depend(inout: buffer[b])
#pragma omp depobj(reads[b]) depend(inout: buffer[b])
    }
#pragma omp depobj(log_dep) depend(inout: consumed)

#pragma omp parallel
#pragma omp single
    {
        /* The consumers only read their buffer: their objects become in. */
        for (int b = 0; b < BUFFERS; b++) {
#pragma omp depobj(reads[b]) update(in)
        }
        for (int id = 0; id < FRAMES; id++)
            schedule_frame(&buffer[id % BUFFERS], id, seed, writes[id % BUFFERS], reads[id % BUFFERS], log_dep);
    }

    for (int b = 0; b < BUFFERS; b++) {
#pragma omp depobj(writes[b]) destroy
#pragma omp depobj(reads[b]) destroy
    }
#pragma omp depobj(log_dep) destroy

    long total = 0;
    for (int id = 0; id < FRAMES; id++) {
        printf("frame %2d: %ld\n", id, results[id]);
        total += results[id];
    }
    int in_order = 1;
    for (int k = 1; k < FRAMES; k++)
        in_order &= order[k] > order[k - 1];
    printf("total %ld, %d frames, consumed in order: %s\n", total, consumed, in_order ? "yes" : "no");
    return 0;
}
