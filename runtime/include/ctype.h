/* omp2gpu <ctype.h>: glibc exports each classification as a real function. */
#ifndef __OMP2GPU_CTYPE_H
#define __OMP2GPU_CTYPE_H

#include <features.h>

int isalnum(int c);
int isalpha(int c);
#if defined __USE_ISOC99
int isblank(int c);
#endif
int iscntrl(int c);
int isdigit(int c);
int isgraph(int c);
int islower(int c);
int isprint(int c);
int ispunct(int c);
int isspace(int c);
int isupper(int c);
int isxdigit(int c);
#if defined __USE_XOPEN || defined __USE_MISC
int isascii(int c);
#endif
int tolower(int c);
int toupper(int c);

#endif
