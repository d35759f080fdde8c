/* omp2gpu <wchar.h>: wide characters and multibyte conversion (glibc x86-64). */
#ifndef __OMP2GPU_WCHAR_H
#define __OMP2GPU_WCHAR_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <time.h>

#include <bits/types/wint_t.h>
#include <bits/types/mbstate_t.h>
#ifndef WEOF
#define WEOF (0xffffffffu)
#endif

wchar_t *wcscpy(wchar_t *restrict dest, const wchar_t *restrict src);
wchar_t *wcsncpy(wchar_t *restrict dest, const wchar_t *restrict src, size_t n);
wchar_t *wcscat(wchar_t *restrict dest, const wchar_t *restrict src);
wchar_t *wcsncat(wchar_t *restrict dest, const wchar_t *restrict src, size_t n);
int wcscmp(const wchar_t *s1, const wchar_t *s2);
int wcsncmp(const wchar_t *s1, const wchar_t *s2, size_t n);
int wcscasecmp(const wchar_t *s1, const wchar_t *s2);
int wcsncasecmp(const wchar_t *s1, const wchar_t *s2, size_t n);
int wcscoll(const wchar_t *s1, const wchar_t *s2);
size_t wcsxfrm(wchar_t *restrict s1, const wchar_t *restrict s2, size_t n);
wchar_t *wcsdup(const wchar_t *s);
wchar_t *wcschr(const wchar_t *wcs, wchar_t wc);
wchar_t *wcsrchr(const wchar_t *wcs, wchar_t wc);
size_t wcscspn(const wchar_t *wcs, const wchar_t *reject);
size_t wcsspn(const wchar_t *wcs, const wchar_t *accept);
wchar_t *wcspbrk(const wchar_t *wcs, const wchar_t *accept);
wchar_t *wcsstr(const wchar_t *haystack, const wchar_t *needle);
wchar_t *wcstok(wchar_t *restrict s, const wchar_t *restrict delim, wchar_t **restrict ptr);
size_t wcslen(const wchar_t *s);
size_t wcsnlen(const wchar_t *s, size_t maxlen);
wchar_t *wmemchr(const wchar_t *s, wchar_t c, size_t n);
int wmemcmp(const wchar_t *s1, const wchar_t *s2, size_t n);
wchar_t *wmemcpy(wchar_t *restrict s1, const wchar_t *restrict s2, size_t n);
wchar_t *wmemmove(wchar_t *s1, const wchar_t *s2, size_t n);
wchar_t *wmemset(wchar_t *s, wchar_t c, size_t n);

wint_t btowc(int c);
int wctob(wint_t c);
int mbsinit(const mbstate_t *ps);
size_t mbrtowc(wchar_t *restrict pwc, const char *restrict s, size_t n, mbstate_t *restrict p);
size_t wcrtomb(char *restrict s, wchar_t wc, mbstate_t *restrict ps);
size_t mbrlen(const char *restrict s, size_t n, mbstate_t *restrict ps);
size_t mbsrtowcs(wchar_t *restrict dst, const char **restrict src, size_t len, mbstate_t *restrict ps);
size_t wcsrtombs(char *restrict dst, const wchar_t **restrict src, size_t len, mbstate_t *restrict ps);
int wcwidth(wchar_t c);
int wcswidth(const wchar_t *s, size_t n);

double wcstod(const wchar_t *restrict nptr, wchar_t **restrict endptr);
float wcstof(const wchar_t *restrict nptr, wchar_t **restrict endptr);
long wcstol(const wchar_t *restrict nptr, wchar_t **restrict endptr, int base);
unsigned long wcstoul(const wchar_t *restrict nptr, wchar_t **restrict endptr, int base);
long long wcstoll(const wchar_t *restrict nptr, wchar_t **restrict endptr, int base);
unsigned long long wcstoull(const wchar_t *restrict nptr, wchar_t **restrict endptr, int base);

int fwide(FILE *fp, int mode);
int fwprintf(FILE *restrict stream, const wchar_t *restrict format, ...);
int wprintf(const wchar_t *restrict format, ...);
int swprintf(wchar_t *restrict s, size_t n, const wchar_t *restrict format, ...);
int vfwprintf(FILE *restrict s, const wchar_t *restrict format, __omp2gpu_va_list arg);
int vwprintf(const wchar_t *restrict format, __omp2gpu_va_list arg);
int vswprintf(wchar_t *restrict s, size_t n, const wchar_t *restrict format, __omp2gpu_va_list arg);
wint_t fgetwc(FILE *stream);
wint_t getwc(FILE *stream);
wint_t getwchar(void);
wint_t fputwc(wchar_t wc, FILE *stream);
wint_t putwc(wchar_t wc, FILE *stream);
wint_t putwchar(wchar_t wc);
wchar_t *fgetws(wchar_t *restrict ws, int n, FILE *restrict stream);
int fputws(const wchar_t *restrict ws, FILE *restrict stream);
wint_t ungetwc(wint_t wc, FILE *stream);
size_t wcsftime(wchar_t *restrict s, size_t maxsize, const wchar_t *restrict format,
                const struct tm *restrict tp);

#endif
