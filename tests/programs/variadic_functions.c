#include <stdio.h>
#include <stdarg.h>
static double sum(int n, ...) { va_list ap; double s = 0; int i; va_start(ap, n);
  for (i = 0; i < n; i++) s += va_arg(ap, double); va_end(ap); return s; }
static long isum(int n, ...) { va_list ap; long s = 0; int i; va_start(ap, n);
  for (i = 0; i < n; i++) s += va_arg(ap, int); va_end(ap); return s; }
static void logf2(const char *fmt, ...) { va_list ap; va_start(ap, fmt); vprintf(fmt, ap); va_end(ap); }
int main(void){ printf("%g %ld\n", sum(10, 1.,2.,3.,4.,5.,6.,7.,8.,9.,10.), isum(9,1,2,3,4,5,6,7,8,9)); logf2("x=%d y=%s\n", 5, "hi"); return 0; }
