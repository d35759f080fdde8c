/* assert() with conditions that hold: no output from assert, side effects inside are evaluated. */
#include <stdio.h>
#include <assert.h>
#include <string.h>

static int calls;
static int check(int v) { calls++; return v > 0; }

int main(void)
{
    int a[4] = { 1, 2, 3, 4 };
    int i, s = 0;
    const char *str = "assert";

    for (i = 0; i < 4; i++) {
        assert(a[i] == i + 1);
        s += a[i];
    }
    assert(s == 10);
    assert(strlen(str) == 6);
    assert(check(5));
    assert(check(1) && check(2));
    assert(str != NULL);
    assert(1.5 > 1.0);
    printf("all asserts passed, s = %d, calls = %d\n", s, calls);
    return 0;
}
