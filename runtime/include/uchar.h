/* omp2gpu <uchar.h>: UTF-16/32 characters (glibc x86-64). */
#ifndef __OMP2GPU_UCHAR_H
#define __OMP2GPU_UCHAR_H

#include <stddef.h>
#include <stdint.h>

#include <bits/types/mbstate_t.h>
typedef uint_least16_t char16_t;
typedef uint_least32_t char32_t;

size_t mbrtoc16(char16_t *restrict pc16, const char *restrict s, size_t n, mbstate_t *restrict p);
size_t c16rtomb(char *restrict s, char16_t c16, mbstate_t *restrict ps);
size_t mbrtoc32(char32_t *restrict pc32, const char *restrict s, size_t n, mbstate_t *restrict p);
size_t c32rtomb(char *restrict s, char32_t c32, mbstate_t *restrict ps);

#endif
