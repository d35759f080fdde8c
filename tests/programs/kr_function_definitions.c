/* K&R function definitions, as old numerical codes (netlib ports, early
   benchmark suites) still have them: identifier lists with the parameter
   declarations between ')' and '{', a parameter left to default to int,
   register parameters, pointers and doubles, and one such function called
   from a target region. gcc compiles them (with -Wimplicit-int warnings). */
#include <stdio.h>

#define N 16

/* daxpy in the BLAS-1 style of the 1980s */
void daxpy(n, da, dx, incx, dy, incy)
int n;
double da;
double *dx, *dy;
int incx, incy;
{
  int i, ix = 0, iy = 0;
  if (n <= 0 || da == 0.0)
    return;
  for (i = 0; i < n; i++) {
    dy[iy] += da * dx[ix];
    ix += incx;
    iy += incy;
  }
}

double ddot(n, dx, dy)
register int n;
double *dx, *dy;
{
  double sum = 0.0;
  while (n-- > 0)
    sum += *dx++ * *dy++;
  return sum;
}

/* `step` has no declaration: it is an int */
long triangle(limit, step)
long limit;
{
  long total = 0, k;
  for (k = 0; k <= limit; k += step)
    total += k;
  return total;
}

int idamax(n, dx)
int n;
const double *dx;
{
  int i, best = 0;
  for (i = 1; i < n; i++)
    if ((dx[i] < 0 ? -dx[i] : dx[i]) > (dx[best] < 0 ? -dx[best] : dx[best]))
      best = i;
  return best;
}

#pragma omp declare target
double scaled(x, factor)
double x;
int factor;
{
  return x * factor + 0.5;
}
#pragma omp end declare target

int main(void) {
  double x[N], y[N], z[N];
  int i;
  for (i = 0; i < N; i++) {
    x[i] = i * 0.25;
    y[i] = (i % 5) - 2.0;
  }
  daxpy(N, 2.0, x, 1, y, 1);
  daxpy(N / 2, -1.0, x, 2, y, 2);
  printf("dot %.4f\n", ddot(N, x, y));
  printf("argmax %d\n", idamax(N, y));
  printf("triangle %ld %ld\n", triangle(100L, 1), triangle(100L, 7));
  {
    /* the type of a call to a K&R function, as a max() macro's __typeof__ asks it */
    __typeof__(ddot(N, x, y)) norm2 = ddot(N, y, y);
    static char kinds[sizeof idamax(N, x) + sizeof(ddot(N, x, x))];
    printf("norm2 %.4f, %zu bytes\n", norm2, sizeof kinds);
  }

  #pragma omp target teams distribute parallel for map(to: x) map(from: z)
  for (i = 0; i < N; i++)
    z[i] = scaled(x[i], i % 3);
  for (i = 0; i < N; i += 3)
    printf("z[%d] = %.3f\n", i, z[i]);
  return 0;
}
