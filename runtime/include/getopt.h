/* omp2gpu <getopt.h>: getopt and getopt_long (glibc); optarg and friends are
 * glibc's own globals. */
#ifndef __OMP2GPU_GETOPT_H
#define __OMP2GPU_GETOPT_H

#include <bits/getopt_core.h>

struct option {
  const char *name;
  int has_arg;
  int *flag;
  int val;
};

#define no_argument 0
#define required_argument 1
#define optional_argument 2

int getopt_long(int argc, char *const *argv, const char *shortopts,
                const struct option *longopts, int *longind);
int getopt_long_only(int argc, char *const *argv, const char *shortopts,
                     const struct option *longopts, int *longind);

#endif
