/* What gdb sees of a program's variables with -g (tests/native/test_debugging.py): the
 * block it stops in (two loops' `i`, an inner `total` shadowing the outer one), a static
 * local, file-scope objects and variable-length arrays. */
#include <stdio.h>
#include <stdlib.h>

struct settings { int steps; double dt; };
static struct settings config = { 3, 0.5 };
int histogram[4];

static int next_id(void)
{
    static int issued = 40;
    issued++;
    return issued; /* STATIC */
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 3;
    double grid[n][n];
    int total = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            grid[i][j] = 10 * i + j;
    for (int i = 0; i < 4; i++)
        histogram[i] = i * i;
    for (int i = 100; i < 100 + config.steps; i++) {
        int doubled = 2 * i;
        total += doubled; /* LOOP */
    }
    {
        static int blocks_entered;      /* a static local of a nested block */
        int total = next_id() + next_id();
        blocks_entered++;
        printf("inner %d (%d)\n", total, blocks_entered); /* INNER */
    }
    printf("total %d grid %.0f\n", total, grid[n - 1][n - 1]);
    return 0;
}
