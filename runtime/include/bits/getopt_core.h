/* omp2gpu: getopt and its globals (glibc's own), which <unistd.h> declares for POSIX.2
 * and <getopt.h> with the long options. */
#ifndef __OMP2GPU_GETOPT_CORE_H
#define __OMP2GPU_GETOPT_CORE_H
extern char *optarg;
extern int optind;
extern int opterr;
extern int optopt;
int getopt(int argc, char *const *argv, const char *shortopts);
#endif
