/* exit() from a nested function after printing: buffered stdout must be flushed, atexit handlers run. */
#include <stdio.h>
#include <stdlib.h>

static void handler1(void) { printf("atexit handler 1\n"); }
static void handler2(void) { printf("atexit handler 2\n"); }

static void deep(int level)
{
    if (level < 0)
        return;
    if (level == 0) {
        printf("exiting from depth\n");
        exit(5);
    }
    deep(level - 1);
    printf("never printed\n");
}

int main(void)
{
    atexit(handler1);
    atexit(handler2);
    printf("before exit, no newline yet... ");
    printf("now newline\n");
    printf("partial line without newline");
    printf(" - completed\n");
    deep(3);
    printf("not reached\n");
    return 0;
}
