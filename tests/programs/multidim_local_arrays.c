/* Multi-dimensional local arrays: initialization, indexing, row pointers. */
#include <stdio.h>

int main(void)
{
    int a[3][4] = { { 1, 2, 3, 4 }, { 5, 6 }, { 9 } };
    double m[2][3][4];
    char words[3][6] = { "one", "two", "three" };
    int flat[2][3] = { [1] = { 4, 5, 6 }, [0][1] = 2 };
    int i, j, k, sum = 0;
    int (*row)[4];
    int *p;

    for (i = 0; i < 3; i++) {
        for (j = 0; j < 4; j++)
            printf("%d ", a[i][j]);
        printf("\n");
    }
    for (i = 0; i < 2; i++)
        for (j = 0; j < 3; j++)
            for (k = 0; k < 4; k++)
                m[i][j][k] = i * 100 + j * 10 + k + 0.5;
    printf("m[1][2][3] = %.1f m[0][1][2] = %.1f\n", m[1][2][3], m[0][1][2]);
    /* row pointer walking */
    for (row = a; row < a + 3; row++)
        sum += (*row)[1];
    printf("sum of column 1 = %d\n", sum);
    /* flattened access */
    p = &a[0][0];
    sum = 0;
    for (i = 0; i < 12; i++)
        sum += p[i] * (i + 1);
    printf("weighted flat sum = %d\n", sum);
    for (i = 0; i < 3; i++)
        printf("words[%d] = %s (len byte 3 = %d)\n", i, words[i], words[i][3]);
    printf("flat = %d %d %d %d %d %d\n", flat[0][0], flat[0][1], flat[0][2], flat[1][0], flat[1][1], flat[1][2]);
    /* sizes */
    printf("sizeof a = %d, a[0] = %d, m = %d, m[1] = %d, m[1][1] = %d\n",
           (int)sizeof a, (int)sizeof a[0], (int)sizeof m, (int)sizeof m[1], (int)sizeof m[1][1]);
    /* transpose into another local array */
    {
        int t[4][3];
        for (i = 0; i < 3; i++)
            for (j = 0; j < 4; j++)
                t[j][i] = a[i][j];
        for (j = 0; j < 4; j++)
            printf("t[%d] = %d %d %d\n", j, t[j][0], t[j][1], t[j][2]);
    }
    /* array decays: difference between row addresses */
    printf("rows apart: %d ints\n", (int)(&a[2][0] - &a[0][0]));
    printf("a[1] - a[0] as row ptrs: %d\n", (int)((a + 2) - a));
    return 0;
}
