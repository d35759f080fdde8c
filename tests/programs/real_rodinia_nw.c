/* Rodinia-style Needleman-Wunsch: global alignment of two random protein
 * sequences with the BLOSUM62 substitution matrix. The score matrix is filled
 * along anti-diagonals, one target region per diagonal (the cells of one
 * diagonal are independent), inside a `target data` region; the traceback runs
 * on the host.
 *
 * Command line: [max_rows penalty] as numbers; other words are ignored. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

#define LIMIT -999

static const int blosum62[24][24] = {
    { 4, -1, -2, -2,  0, -1, -1,  0, -2, -1, -1, -1, -1, -2, -1,  1,  0, -3, -2,  0, -2, -1,  0, -4},
    {-1,  5,  0, -2, -3,  1,  0, -2,  0, -3, -2,  2, -1, -3, -2, -1, -1, -3, -2, -3, -1,  0, -1, -4},
    {-2,  0,  6,  1, -3,  0,  0,  0,  1, -3, -3,  0, -2, -3, -2,  1,  0, -4, -2, -3,  3,  0, -1, -4},
    {-2, -2,  1,  6, -3,  0,  2, -1, -1, -3, -4, -1, -3, -3, -1,  0, -1, -4, -3, -3,  4,  1, -1, -4},
    { 0, -3, -3, -3,  9, -3, -4, -3, -3, -1, -1, -3, -1, -2, -3, -1, -1, -2, -2, -1, -3, -3, -2, -4},
    {-1,  1,  0,  0, -3,  5,  2, -2,  0, -3, -2,  1,  0, -3, -1,  0, -1, -2, -1, -2,  0,  3, -1, -4},
    {-1,  0,  0,  2, -4,  2,  5, -2,  0, -3, -3,  1, -2, -3, -1,  0, -1, -3, -2, -2,  1,  4, -1, -4},
    { 0, -2,  0, -1, -3, -2, -2,  6, -2, -4, -4, -2, -3, -3, -2,  0, -2, -2, -3, -3, -1, -2, -1, -4},
    {-2,  0,  1, -1, -3,  0,  0, -2,  8, -3, -3, -1, -2, -1, -2, -1, -2, -2,  2, -3,  0,  0, -1, -4},
    {-1, -3, -3, -3, -1, -3, -3, -4, -3,  4,  2, -3,  1,  0, -3, -2, -1, -3, -1,  3, -3, -3, -1, -4},
    {-1, -2, -3, -4, -1, -2, -3, -4, -3,  2,  4, -2,  2,  0, -3, -2, -1, -2, -1,  1, -4, -3, -1, -4},
    {-1,  2,  0, -1, -3,  1,  1, -2, -1, -3, -2,  5, -1, -3, -1,  0, -1, -3, -2, -2,  0,  1, -1, -4},
    {-1, -1, -2, -3, -1,  0, -2, -3, -2,  1,  2, -1,  5,  0, -2, -1, -1, -1, -1,  1, -3, -1, -1, -4},
    {-2, -3, -3, -3, -2, -3, -3, -3, -1,  0,  0, -3,  0,  6, -4, -2, -2,  1,  3, -1, -3, -3, -1, -4},
    {-1, -2, -2, -1, -3, -1, -1, -2, -2, -3, -3, -1, -2, -4,  7, -1, -1, -4, -3, -2, -2, -1, -2, -4},
    { 1, -1,  1,  0, -1,  0,  0,  0, -1, -2, -2,  0, -1, -2, -1,  4,  1, -3, -2, -2,  0,  0,  0, -4},
    { 0, -1,  0, -1, -1, -1, -1, -2, -2, -1, -1, -1, -1, -2, -1,  1,  5, -2, -2,  0, -1, -1,  0, -4},
    {-3, -3, -4, -4, -2, -2, -3, -2, -2, -3, -2, -3, -1,  1, -4, -3, -2, 11,  2, -3, -4, -3, -2, -4},
    {-2, -2, -2, -3, -2, -1, -2, -3,  2, -1, -1, -2, -1,  3, -3, -2, -2,  2,  7, -1, -3, -2, -1, -4},
    { 0, -3, -3, -3, -1, -2, -2, -3, -3,  3,  1, -2,  1, -1, -2, -2,  0, -3, -1,  4, -3, -2, -1, -4},
    {-2, -1,  3,  4, -3,  0,  1, -1,  0, -3, -4,  0, -3, -3, -2,  0, -1, -4, -3, -3,  4,  1, -1, -4},
    {-1,  0,  0,  1, -3,  3,  4, -2,  0, -3, -3,  1, -1, -3, -1,  0, -1, -3, -2, -2,  1,  4, -1, -4},
    { 0, -1, -1, -1, -2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -2,  0,  0, -2, -1, -1, -1, -1, -1, -4},
    {-4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4,  1}
};

static const char residues[] = "ARNDCQEGHILKMFPSTWYVBZX*";

#pragma omp declare target
static int maximum(int a, int b, int c)
{
    int k = a > b ? a : b;
    return k > c ? k : c;
}
#pragma omp end declare target

/* Fill the score matrix diagonal by diagonal (cells (i, j) with i + j = d). */
static void nw_fill(int *score, const int *reference, int rows, int cols, int penalty)
{
    int d;
#pragma omp target data map(tofrom: score[0:rows*cols]) map(to: reference[0:rows*cols])
    {
        for (d = 2; d <= (rows - 1) + (cols - 1); d++) {
            int first = d - (cols - 1) > 1 ? d - (cols - 1) : 1;
            int last = d - 1 < rows - 1 ? d - 1 : rows - 1;
            int i;
#pragma omp target teams distribute parallel for firstprivate(d, penalty)
            for (i = first; i <= last; i++) {
                int j = d - i;
                int idx = i * cols + j;
                score[idx] = maximum(score[idx - cols - 1] + reference[idx],
                                     score[idx - 1] - penalty,
                                     score[idx - cols] - penalty);
            }
        }
    }
}

/* The reference: the same recurrence row by row on the host. */
static long long nw_fill_host(int *score, const int *reference, int rows, int cols, int penalty,
                              const int *device_score)
{
    long long differences = 0;
    int i, j;
    for (i = 1; i < rows; i++)
        for (j = 1; j < cols; j++) {
            int idx = i * cols + j;
            score[idx] = maximum(score[idx - cols - 1] + reference[idx], score[idx - 1] - penalty,
                                 score[idx - cols] - penalty);
            differences += score[idx] != device_score[idx];
        }
    return differences;
}

/* Walk back from the bottom-right corner; counts matches, mismatches and gaps. */
static void traceback(const int *score, const int *reference, int rows, int cols, int penalty,
                      int *matches, int *mismatches, int *gaps, const int *seq1, const int *seq2)
{
    int i = rows - 1, j = cols - 1;
    *matches = *mismatches = *gaps = 0;
    while (i > 0 || j > 0) {
        int here = score[i * cols + j];
        if (i > 0 && j > 0 && here == score[(i - 1) * cols + j - 1] + reference[i * cols + j]) {
            if (seq1[i] == seq2[j])
                (*matches)++;
            else
                (*mismatches)++;
            i--;
            j--;
        } else if (j > 0 && here == score[i * cols + j - 1] - penalty) {
            (*gaps)++;
            j--;
        } else {
            (*gaps)++;
            i--;
        }
    }
}

/* The alignment itself, from the end backwards: two rows of residues with '-'
 * for gaps and a middle row marking identities ('|') and substitutions ('.'). */
static int alignment_rows(const int *score, const int *reference, int rows, int cols, int penalty,
                          const int *seq1, const int *seq2, char *top, char *mid, char *bottom)
{
    int i = rows - 1, j = cols - 1, len = 0, k;
    while (i > 0 || j > 0) {
        int here = score[i * cols + j];
        if (i > 0 && j > 0 && here == score[(i - 1) * cols + j - 1] + reference[i * cols + j]) {
            top[len] = residues[seq1[i]];
            bottom[len] = residues[seq2[j]];
            mid[len++] = seq1[i] == seq2[j] ? '|' : '.';
            i--;
            j--;
        } else if (j > 0 && here == score[i * cols + j - 1] - penalty) {
            top[len] = '-';
            bottom[len] = residues[seq2[j--]];
            mid[len++] = ' ';
        } else {
            top[len] = residues[seq1[i--]];
            bottom[len] = '-';
            mid[len++] = ' ';
        }
    }
    for (k = 0; k < len / 2; k++) {       /* into reading order */
        char t;
        t = top[k], top[k] = top[len - 1 - k], top[len - 1 - k] = t;
        t = mid[k], mid[k] = mid[len - 1 - k], mid[len - 1 - k] = t;
        t = bottom[k], bottom[k] = bottom[len - 1 - k], bottom[len - 1 - k] = t;
    }
    top[len] = mid[len] = bottom[len] = '\0';
    return len;
}

int main(int argc, char **argv)
{
    int max_rows = 160, max_cols, penalty = 10;
    int *input_itemsets, *host_itemsets, *reference, *seq1, *seq2;
    int i, j, matches, mismatches, gaps;
    long long row_sum = 0;
    double t0, t1;

    if (argc == 3 && atoi(argv[1]) > 0 && atoi(argv[2]) > 0) {
        max_rows = atoi(argv[1]);
        penalty = atoi(argv[2]);
    }
    max_rows = max_rows + 1;
    max_cols = max_rows - 37 > 2 ? max_rows - 37 : max_rows;   /* sequences of different lengths */
    printf("Needleman-Wunsch: sequences of %d and %d residues, gap penalty %d\n", max_rows - 1,
           max_cols - 1, penalty);

    input_itemsets = malloc(max_rows * max_cols * sizeof(int));
    reference = malloc(max_rows * max_cols * sizeof(int));
    seq1 = malloc(max_rows * sizeof(int));
    seq2 = malloc(max_cols * sizeof(int));
    srand(7);
    for (i = 1; i < max_rows; i++)
        seq1[i] = rand() % 10 + 1;
    for (j = 1; j < max_cols; j++)
        seq2[j] = (j % 9 == 0) ? rand() % 10 + 1 : seq1[j + (j % 3)];   /* related sequences */
    seq1[0] = seq2[0] = 0;

    for (i = 0; i < max_rows; i++)
        for (j = 0; j < max_cols; j++) {
            reference[i * max_cols + j] = blosum62[seq1[i]][seq2[j]];
            input_itemsets[i * max_cols + j] = 0;
        }
    for (i = 1; i < max_rows; i++)
        input_itemsets[i * max_cols] = -i * penalty;
    for (j = 1; j < max_cols; j++)
        input_itemsets[j] = -j * penalty;

    host_itemsets = malloc(max_rows * max_cols * sizeof(int));
    memcpy(host_itemsets, input_itemsets, max_rows * max_cols * sizeof(int));
    t0 = omp_get_wtime();
    nw_fill(input_itemsets, reference, max_rows, max_cols, penalty);
    t1 = omp_get_wtime();

    traceback(input_itemsets, reference, max_rows, max_cols, penalty, &matches, &mismatches, &gaps, seq1, seq2);
    for (j = 0; j < max_cols; j++)
        row_sum += input_itemsets[(max_rows - 1) * max_cols + j];
    printf("alignment score: %d\n", input_itemsets[max_rows * max_cols - 1]);
    printf("last row sum: %lld\n", row_sum);
    printf("traceback: %d matches, %d mismatches, %d gaps\n", matches, mismatches, gaps);
    printf("first residues: ");
    for (i = 1; i <= 12 && i < max_rows; i++)
        putchar(residues[seq1[i]]);
    printf(" / ");
    for (j = 1; j <= 12 && j < max_cols; j++)
        putchar(residues[seq2[j]]);
    printf("\n");
    {
        char *top = malloc(max_rows + max_cols), *mid = malloc(max_rows + max_cols);
        char *bottom = malloc(max_rows + max_cols);
        int len = alignment_rows(input_itemsets, reference, max_rows, max_cols, penalty, seq1, seq2, top, mid,
                                 bottom);
        printf("alignment of %d columns, the first 60:\n%.60s\n%.60s\n%.60s\n", len, top, mid, bottom);
        free(top);
        free(mid);
        free(bottom);
    }
    printf("timing: fill %.6f s\n", t1 - t0);
    printf("cells that differ from the host's fill: %lld\n",
           nw_fill_host(host_itemsets, reference, max_rows, max_cols, penalty, input_itemsets));
    free(host_itemsets);

    free(input_itemsets);
    free(reference);
    free(seq1);
    free(seq2);
    return 0;
}
