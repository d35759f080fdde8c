#include "config.h"
#include "motion.h"
#include <stdio.h>
#include <stdlib.h>
#ifdef HAVE_GETOPT_H
#include <getopt.h>
#endif
#include <unistd.h>

int main(int argc, char **argv)
{
    size_t count = 1000;
    int steps = 10, option;
    while ((option = getopt(argc, argv, "n:s:")) != -1) {
        switch (option) {
        case 'n': count = (size_t)strtoul(optarg, NULL, 10); break;
        case 's': steps = atoi(optarg); break;
        default:
            fprintf(stderr, "usage: %s [-n particles] [-s steps]\n", argv[0]);
            return 2;
        }
    }
    particles_t p;
    particles_init(&p, count);
    int on_device = particles_advance(&p, steps, 0.01);
    double sx = 0, sy = 0;
    for (size_t i = 0; i < count; i++) {     /* summed in order: the same on every build */
        sx += p.x[i];
        sy += p.y[i];
    }
    printf("%zu particles, %d steps (sizeof(double) %d): centre %.9f %.9f\n",
           count, steps, SIZEOF_DOUBLE, sx / (double)count, sy / (double)count);
    fprintf(stderr, "%d of %d steps ran on a device\n", on_device, steps);
    particles_free(&p);
    return 0;
}
