/* OpenMP 5.2's doacross clause (`ordered doacross(sink: ...)`, `doacross(source:)`,
 * `doacross(source: omp_cur_iteration)`), which gcc 12 does not know (gcc 13 added it):
 * the dynamic-programming table of a longest common subsequence, filled as a
 * wavefront. Rows are shared out among the threads; cell (i, j) waits for its north
 * (i-1, j) and west (i, j-1) cells (its north-west one is older than both). Then, in
 * a target region, running totals of the rows with a one-dimensional doacross loop
 * (row r after row r - 1). Every answer is checked against the sequential loops the
 * program also runs; the numbers printed are integers, the same in any order of the
 * rows (the .expected file is the output of the same program spelled with OpenMP
 * 4.5's depend(sink)/depend(source), built by gcc 12). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEN_A 300
#define LEN_B 240

struct strands {
    char a[LEN_A + 1];
    char b[LEN_B + 1];
};

static int table[LEN_A + 1][LEN_B + 1], reference[LEN_A + 1][LEN_B + 1];
static long rows[LEN_A + 1];

static void make_strands(struct strands *s, unsigned seed)
{
    const char bases[] = "ACGT";
    for (int i = 0; i < LEN_A; i++) {
        seed = seed * 1103515245u + 12345u;
        s->a[i] = bases[(seed >> 16) % 4];
    }
    for (int j = 0; j < LEN_B; j++) {
        seed = seed * 1103515245u + 12345u;
        s->b[j] = bases[(seed >> 16) % 4];
    }
    s->a[LEN_A] = s->b[LEN_B] = '\0';
}

static int step(int (*t)[LEN_B + 1], const struct strands *s, int i, int j)
{
    if (s->a[i - 1] == s->b[j - 1])
        return t[i - 1][j - 1] + 1;
    return t[i - 1][j] > t[i][j - 1] ? t[i - 1][j] : t[i][j - 1];
}

int main(void)
{
    struct strands s;
    make_strands(&s, 2024u);
    int i, j;

    for (i = 1; i <= LEN_A; i++)
        for (j = 1; j <= LEN_B; j++)
            reference[i][j] = step(reference, &s, i, j);

    #pragma omp parallel for ordered(2) schedule(dynamic, 4) private(j)
    for (i = 1; i <= LEN_A; i++)
        for (j = 1; j <= LEN_B; j++) {
            #pragma omp ordered doacross(sink: i - 1, j) doacross(sink: i, j - 1)
            table[i][j] = step(table, &s, i, j);
            #pragma omp ordered doacross(source:)
        }

    /* running totals of the rows' sums, on the device: row i after row i - 1 */
    long expected = 0;
    rows[0] = 0;
    #pragma omp target map(to: table) map(tofrom: rows)
    #pragma omp parallel for ordered(1) schedule(static, 7)
    for (int r = 1; r <= LEN_A; r++) {
        long sum = 0;
        for (int c = 1; c <= LEN_B; c++)
            sum += table[r][c];
        #pragma omp ordered doacross(sink: r - 1)
        rows[r] = rows[r - 1] + sum % 1000;
        #pragma omp ordered doacross(source: omp_cur_iteration)
    }
    for (int r = 1; r <= LEN_A; r++) {
        long sum = 0;
        for (int c = 1; c <= LEN_B; c++)
            sum += reference[r][c];
        expected += sum % 1000;
    }

    printf("lcs length %d\n", table[LEN_A][LEN_B]);
    printf("table matches sequential %d\n", memcmp(table, reference, sizeof table) == 0);
    printf("row totals %ld matches %d\n", rows[LEN_A], rows[LEN_A] == expected);
    return 0;
}
