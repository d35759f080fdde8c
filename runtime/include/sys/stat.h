/* omp2gpu <sys/stat.h>: struct stat as glibc x86-64 lays it out. */
#ifndef __OMP2GPU_SYS_STAT_H
#define __OMP2GPU_SYS_STAT_H
#include <bits/types.h>

#include <sys/types.h>
#include <time.h>

struct stat {
  __dev_t st_dev;
  __ino_t st_ino;
  __nlink_t st_nlink;
  __mode_t st_mode;
  __uid_t st_uid;
  __gid_t st_gid;
  int __pad0;
  __dev_t st_rdev;
  __off_t st_size;
  __blksize_t st_blksize;
  __blkcnt_t st_blocks;
  struct timespec st_atim;
  struct timespec st_mtim;
  struct timespec st_ctim;
  long __glibc_reserved[3];
};
#define st_atime st_atim.tv_sec
#define st_mtime st_mtim.tv_sec
#define st_ctime st_ctim.tv_sec

#define S_IFMT 0170000
#define S_IFDIR 0040000
#define S_IFCHR 0020000
#define S_IFBLK 0060000
#define S_IFREG 0100000
#define S_IFIFO 0010000
#define S_IFLNK 0120000
#define S_IFSOCK 0140000
#define S_ISDIR(m) (((m) & S_IFMT) == S_IFDIR)
#define S_ISCHR(m) (((m) & S_IFMT) == S_IFCHR)
#define S_ISBLK(m) (((m) & S_IFMT) == S_IFBLK)
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
#define S_ISFIFO(m) (((m) & S_IFMT) == S_IFIFO)
#define S_ISLNK(m) (((m) & S_IFMT) == S_IFLNK)
#define S_ISSOCK(m) (((m) & S_IFMT) == S_IFSOCK)
#define S_ISUID 04000
#define S_ISGID 02000
#define S_ISVTX 01000
#define S_IRWXU 0700
#define S_IRUSR 0400
#define S_IWUSR 0200
#define S_IXUSR 0100
#define S_IRWXG 070
#define S_IRGRP 040
#define S_IWGRP 020
#define S_IXGRP 010
#define S_IRWXO 07
#define S_IROTH 04
#define S_IWOTH 02
#define S_IXOTH 01
#define UTIME_NOW ((1l << 30) - 1l)
#define UTIME_OMIT ((1l << 30) - 2l)

int stat(const char *restrict path, struct stat *restrict buf);
int fstat(int fd, struct stat *buf);
int lstat(const char *restrict path, struct stat *restrict buf);
int fstatat(int fd, const char *restrict path, struct stat *restrict buf, int flag);
int chmod(const char *path, __mode_t mode);
int fchmod(int fd, __mode_t mode);
int fchmodat(int fd, const char *path, __mode_t mode, int flag);
__mode_t umask(__mode_t mask);
int mkdir(const char *path, __mode_t mode);
int mkdirat(int fd, const char *path, __mode_t mode);
int mkfifo(const char *path, __mode_t mode);
int mkfifoat(int fd, const char *path, __mode_t mode);
int mknod(const char *path, __mode_t mode, __dev_t dev);
int mknodat(int fd, const char *path, __mode_t mode, __dev_t dev);
int utimensat(int fd, const char *path, const struct timespec times[2], int flags);
int futimens(int fd, const struct timespec times[2]);

#endif
