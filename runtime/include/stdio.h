/* omp2gpu <stdio.h>: glibc x86-64 prototypes; FILE stays opaque and the
 * standard streams are glibc's exported `stdin`/`stdout`/`stderr` objects. */
#ifndef __OMP2GPU_STDIO_H
#define __OMP2GPU_STDIO_H

#include <features.h>

#ifndef __OMP2GPU_SIZE_T
#define __OMP2GPU_SIZE_T
typedef unsigned long size_t;
#endif
#if defined __USE_XOPEN2K8
#ifndef __OMP2GPU_SSIZE_T
#define __OMP2GPU_SSIZE_T
typedef long ssize_t;
#endif
#endif
#ifndef __OMP2GPU_VA_LIST
#define __OMP2GPU_VA_LIST
typedef struct __va_list_tag {
    unsigned int gp_offset;
    unsigned int fp_offset;
    void *overflow_arg_area;
    void *reg_save_area;
} __omp2gpu_va_list[1];
#endif
#ifndef NULL
#define NULL ((void *)0)
#endif

typedef struct _IO_FILE FILE;
/* Same size (16) and alignment as glibc's __fpos_t. */
typedef struct { long __pos; int __state[2]; } fpos_t;

#define EOF (-1)
#define BUFSIZ 8192
#define FILENAME_MAX 4096
#define FOPEN_MAX 16
#define L_tmpnam 20
#define TMP_MAX 238328
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define _IOFBF 0
#define _IOLBF 1
#define _IONBF 2

extern FILE *stdin;
extern FILE *stdout;
extern FILE *stderr;
#define stdin stdin
#define stdout stdout
#define stderr stderr

int remove(const char *filename);
int rename(const char *old, const char *new);
FILE *tmpfile(void);
char *tmpnam(char *s);
int fclose(FILE *stream);
int fflush(FILE *stream);
FILE *fopen(const char *restrict filename, const char *restrict mode);
FILE *freopen(const char *restrict filename, const char *restrict mode, FILE *restrict stream);
#if defined __USE_POSIX
FILE *fdopen(int fd, const char *mode);
int fileno(FILE *stream);
#endif
void setbuf(FILE *restrict stream, char *restrict buf);
int setvbuf(FILE *restrict stream, char *restrict buf, int mode, size_t size);

int printf(const char *restrict format, ...);
int fprintf(FILE *restrict stream, const char *restrict format, ...);
int sprintf(char *restrict s, const char *restrict format, ...);
#if defined __USE_ISOC99 || defined __USE_UNIX98
int snprintf(char *restrict s, size_t n, const char *restrict format, ...);
#endif
int vprintf(const char *restrict format, __omp2gpu_va_list arg);
int vfprintf(FILE *restrict stream, const char *restrict format, __omp2gpu_va_list arg);
int vsprintf(char *restrict s, const char *restrict format, __omp2gpu_va_list arg);
#if defined __USE_ISOC99 || defined __USE_UNIX98
int vsnprintf(char *restrict s, size_t n, const char *restrict format, __omp2gpu_va_list arg);
#endif
int scanf(const char *restrict format, ...);
int fscanf(FILE *restrict stream, const char *restrict format, ...);
int sscanf(const char *restrict s, const char *restrict format, ...);
#if defined __USE_ISOC99
int vscanf(const char *restrict format, __omp2gpu_va_list arg);
int vfscanf(FILE *restrict stream, const char *restrict format, __omp2gpu_va_list arg);
int vsscanf(const char *restrict s, const char *restrict format, __omp2gpu_va_list arg);
#endif

int fgetc(FILE *stream);
int getc(FILE *stream);
int getchar(void);
char *fgets(char *restrict s, int n, FILE *restrict stream);
#if defined __USE_XOPEN2K8
ssize_t getline(char **restrict lineptr, size_t *restrict n, FILE *restrict stream);
#endif
int fputc(int c, FILE *stream);
int putc(int c, FILE *stream);
int putchar(int c);
int fputs(const char *restrict s, FILE *restrict stream);
int puts(const char *s);
int ungetc(int c, FILE *stream);
size_t fread(void *restrict ptr, size_t size, size_t nmemb, FILE *restrict stream);
size_t fwrite(const void *restrict ptr, size_t size, size_t nmemb, FILE *restrict stream);

int fgetpos(FILE *restrict stream, fpos_t *restrict pos);
int fseek(FILE *stream, long offset, int whence);
int fsetpos(FILE *stream, const fpos_t *pos);
long ftell(FILE *stream);
void rewind(FILE *stream);
void clearerr(FILE *stream);
int feof(FILE *stream);
int ferror(FILE *stream);
void perror(const char *s);

#endif
