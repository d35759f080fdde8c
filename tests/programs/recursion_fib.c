/* Recursion: fibonacci, ackermann, mutual recursion, recursive tree on the stack, hanoi. */
#include <stdio.h>

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static long long fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
static int ack(int m, int n)
{
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}
static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

static int moves;
static void hanoi(int n, char from, char to, char via)
{
    if (n == 0) return;
    hanoi(n - 1, from, via, to);
    moves++;
    if (n == 8) printf("move disk 8 %c->%c\n", from, to);
    hanoi(n - 1, via, to, from);
}

static int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }

/* recursion with a local array in each frame */
static int sum_digits_frames(int n, int depth)
{
    int local[8];
    int i, s = 0;
    for (i = 0; i < 8; i++) local[i] = (n >> i) & 1;
    for (i = 0; i < 8; i++) s += local[i];
    if (depth == 0) return s;
    return s + sum_digits_frames(n + 1, depth - 1);
}

static void permute(char *s, int k, int n, int *count)
{
    int i;
    char t;
    if (k == n) {
        if (*count < 3 || *count == 23) printf("perm %d: %s\n", *count, s);
        (*count)++;
        return;
    }
    for (i = k; i < n; i++) {
        t = s[k]; s[k] = s[i]; s[i] = t;
        permute(s, k + 1, n, count);
        t = s[k]; s[k] = s[i]; s[i] = t;
    }
}

int main(void)
{
    int i, count = 0;
    char word[] = "abcd";

    for (i = 0; i <= 25; i += 5)
        printf("fib(%d) = %d\n", i, fib(i));
    printf("fact(20) = %lld\n", fact(20));
    printf("ack(2,3) = %d, ack(3,3) = %d\n", ack(2, 3), ack(3, 3));
    printf("is_even(1000) = %d, is_odd(777) = %d\n", is_even(1000), is_odd(777));
    hanoi(10, 'A', 'C', 'B');
    printf("hanoi moves = %d\n", moves);
    printf("gcd(1071, 462) = %d\n", gcd(1071, 462));
    printf("sum_digits_frames = %d\n", sum_digits_frames(5, 100));
    permute(word, 0, 4, &count);
    printf("permutations = %d\n", count);
    return 0;
}
