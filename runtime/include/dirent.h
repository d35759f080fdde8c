/* omp2gpu <dirent.h>: directory streams (glibc x86-64 layout). */
#ifndef __OMP2GPU_DIRENT_H
#define __OMP2GPU_DIRENT_H
#include <features.h>
#include <bits/types.h>

#ifdef __USE_XOPEN
#ifndef __OMP2GPU_INO_T
#define __OMP2GPU_INO_T
typedef unsigned long ino_t;
#endif
#endif
#ifdef __USE_XOPEN2K8
#ifndef __OMP2GPU_SIZE_T
#define __OMP2GPU_SIZE_T
typedef unsigned long size_t;
#endif
#endif

struct dirent {
  __ino_t d_ino;
  __off_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[256];
};
typedef struct __dirstream DIR;

#if defined __USE_MISC
#define DT_UNKNOWN 0
#define DT_FIFO 1
#define DT_CHR 2
#define DT_DIR 4
#define DT_BLK 6
#define DT_REG 8
#define DT_LNK 10
#define DT_SOCK 12
#define DT_WHT 14
#endif

DIR *opendir(const char *name);
#if defined __USE_XOPEN2K8
DIR *fdopendir(int fd);
#endif
int closedir(DIR *dirp);
struct dirent *readdir(DIR *dirp);
void rewinddir(DIR *dirp);
#if defined __USE_XOPEN || defined __USE_MISC
void seekdir(DIR *dirp, long pos);
long telldir(DIR *dirp);
#endif
#if defined __USE_XOPEN2K8
int dirfd(DIR *dirp);
int alphasort(const struct dirent **a, const struct dirent **b);
int scandir(const char *restrict dir, struct dirent ***restrict namelist,
            int (*selector)(const struct dirent *),
            int (*compar)(const struct dirent **, const struct dirent **));
#endif

#endif
