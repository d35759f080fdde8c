/* Functions marked declare target are callable from target regions (and still from the host). */
#include <stdio.h>

#pragma omp declare target
static int square(int x) { return x * x; }

static double poly(double x)
{
    /* 2x^3 - 3x^2 + x - 5 by Horner */
    return ((2.0 * x - 3.0) * x + 1.0) * x - 5.0;
}

static int collatz_steps(long long n)
{
    int steps = 0;
    while (n != 1) {
        n = (n % 2) ? 3 * n + 1 : n / 2;
        steps++;
    }
    return steps;
}

static int gcd(int a, int b)
{
    while (b) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static int fib_rec(int n) { return n < 2 ? n : fib_rec(n - 1) + fib_rec(n - 2); }

static void fill_row(int *row, int n, int k)
{
    int j;
    for (j = 0; j < n; j++)
        row[j] = gcd(k, j + 1) + square(j % 4);
}
#pragma omp end declare target

#define N 300

int main(void)
{
    int sq[N], steps[N], rows[10][20];
    double pv[N];
    int i, fibs[15];
    long s1 = 0, s2 = 0, s3 = 0;
    double s4 = 0;

#pragma omp target teams distribute parallel for map(from: sq, steps, pv)
    for (i = 0; i < N; i++) {
        sq[i] = square(i - 150);
        steps[i] = collatz_steps(i + 1);
        pv[i] = poly(i * 0.5);
    }
    for (i = 0; i < N; i++) {
        s1 += sq[i];
        s2 += steps[i];
        s4 += pv[i];
    }
    printf("squares %ld, collatz %ld, poly %.2f, steps[26] = %d\n", s1, s2, s4, steps[26]);

#pragma omp target teams distribute parallel for map(from: rows)
    for (i = 0; i < 10; i++)
        fill_row(rows[i], 20, i * 6);
    for (i = 0; i < 10; i++) {
        int j;
        for (j = 0; j < 20; j++)
            s3 += rows[i][j] * (j + 1);
    }
    printf("rows checksum %ld, rows[6][17] = %d\n", s3, rows[6][17]);

    /* recursion inside a target region */
#pragma omp target map(from: fibs)
    {
        int k;
        for (k = 0; k < 15; k++)
            fibs[k] = fib_rec(k);
    }
    printf("fibs:");
    for (i = 0; i < 15; i++)
        printf(" %d", fibs[i]);
    printf("\n");
    /* the same functions on the host */
    printf("host: square(-12) = %d, poly(2) = %.1f, gcd(84, 36) = %d\n", square(-12), poly(2.0), gcd(84, 36));
    return 0;
}
