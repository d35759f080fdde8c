/* omp2gpu <wctype.h>: wide character classification (glibc x86-64). */
#ifndef __OMP2GPU_WCTYPE_H
#define __OMP2GPU_WCTYPE_H

#include <features.h>

#include <bits/types/wint_t.h>
#ifndef WEOF
#define WEOF (0xffffffffu)
#endif
typedef unsigned long wctype_t;
typedef const int *wctrans_t;

int iswalnum(wint_t wc);
int iswalpha(wint_t wc);
#if defined __USE_ISOC99
int iswblank(wint_t wc);
#endif
int iswcntrl(wint_t wc);
int iswdigit(wint_t wc);
int iswgraph(wint_t wc);
int iswlower(wint_t wc);
int iswprint(wint_t wc);
int iswpunct(wint_t wc);
int iswspace(wint_t wc);
int iswupper(wint_t wc);
int iswxdigit(wint_t wc);
wctype_t wctype(const char *property);
int iswctype(wint_t wc, wctype_t desc);
wint_t towlower(wint_t wc);
wint_t towupper(wint_t wc);
wctrans_t wctrans(const char *property);
wint_t towctrans(wint_t wc, wctrans_t desc);

#endif
