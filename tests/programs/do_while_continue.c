/* Loops: do-while (runs once), continue in for/while/do-while, break, nested loops, empty bodies. */
#include <stdio.h>

int main(void)
{
    int i, j, n, sum;

    /* do-while executes at least once */
    n = 0;
    do {
        n++;
    } while (0);
    printf("do-while once: %d\n", n);
    /* continue in do-while jumps to the condition */
    i = 0;
    sum = 0;
    do {
        i++;
        if (i % 3 == 0)
            continue;
        sum += i;
    } while (i < 10);
    printf("do-while continue: i=%d sum=%d\n", i, sum);
    /* continue in for runs the increment */
    sum = 0;
    for (i = 0; i < 20; i++) {
        if (i & 1)
            continue;
        if (i > 14)
            break;
        sum += i;
    }
    printf("for continue/break: i=%d sum=%d\n", i, sum);
    /* continue in while */
    i = 0;
    sum = 0;
    while (i < 10) {
        i++;
        if (i == 5)
            continue;
        sum += i;
    }
    printf("while continue: sum=%d\n", sum);
    /* break only leaves the innermost loop */
    n = 0;
    for (i = 0; i < 5; i++) {
        for (j = 0; j < 5; j++) {
            if (j > i)
                break;
            n++;
        }
    }
    printf("triangle count = %d\n", n);
    /* infinite loops left by break */
    n = 0;
    for (;;) {
        if (++n >= 7)
            break;
    }
    printf("for(;;) n = %d\n", n);
    n = 100;
    while (1) {
        n /= 2;
        if (n < 5)
            break;
    }
    printf("while(1) n = %d\n", n);
    /* empty loop body */
    for (i = 0; i < 1000; i++)
        ;
    printf("empty body i = %d\n", i);
    /* collatz with do-while */
    n = 27;
    i = 0;
    do {
        n = (n % 2) ? 3 * n + 1 : n / 2;
        i++;
    } while (n != 1);
    printf("collatz(27) steps = %d\n", i);
    /* loop variable modified in body, downward loop, step 3 */
    sum = 0;
    for (i = 30; i > 0; i -= 3)
        sum += i;
    printf("down by 3 sum = %d\n", sum);
    /* nested do-while with continue */
    i = 0;
    n = 0;
    do {
        j = 0;
        do {
            j++;
            if ((i + j) % 2)
                continue;
            n += i * j;
        } while (j < 4);
        i++;
    } while (i < 4);
    printf("nested do-while n = %d\n", n);
    /* a loop declared in the for statement (C99) */
    sum = 0;
    for (int k = 0, m = 10; k < m; k++, m--)
        sum += k * m;
    printf("c99 for decl sum = %d\n", sum);
    return 0;
}
