/* Enumerations: implicit and explicit values, negative values, use in switch and arrays. */
#include <stdio.h>

enum color { RED, GREEN, BLUE, NCOLORS };
enum flags { F_READ = 1, F_WRITE = 2, F_EXEC = 4, F_ALL = F_READ | F_WRITE | F_EXEC };
enum weird { W_A = -3, W_B, W_C = 10, W_D, W_E = W_A + 100, W_F };
typedef enum { MON = 1, TUE, WED } day_t;

static const char *color_names[NCOLORS] = { [RED] = "red", [GREEN] = "green", [BLUE] = "blue" };

static const char *describe(enum color c)
{
    switch (c) {
    case RED: return "warm";
    case GREEN:
    case BLUE: return "cool";
    default: return "?";
    }
}

int main(void)
{
    enum color c;
    enum flags f = F_READ | F_EXEC;
    day_t d = TUE;
    int counts[NCOLORS] = { 0 };
    int i;

    for (c = RED; c < NCOLORS; c++)
        printf("%d %s %s\n", c, color_names[c], describe(c));
    printf("F_ALL = %d, f = %d, has write = %d, has exec = %d\n", F_ALL, f, (f & F_WRITE) != 0, (f & F_EXEC) != 0);
    printf("weird: %d %d %d %d %d %d\n", W_A, W_B, W_C, W_D, W_E, W_F);
    printf("day %d, next %d\n", d, d + 1);
    for (i = 0; i < 10; i++)
        counts[(i * 7) % NCOLORS]++;
    for (i = 0; i < NCOLORS; i++)
        printf("counts[%s] = %d\n", color_names[i], counts[i]);
    /* enum constants are ints */
    printf("sizeof(RED) = %d, W_A < 0: %d\n", (int)sizeof(RED), W_A < 0);
    /* enum in arithmetic and comparison */
    c = (enum color)((BLUE + 1) % NCOLORS);
    printf("after BLUE comes %s\n", color_names[c]);
    {
        enum { LOCAL_X = 5, LOCAL_Y = LOCAL_X * 2 } lv = LOCAL_Y;
        int arr[LOCAL_Y];
        printf("local enum %d, array len %d\n", lv, (int)(sizeof arr / sizeof arr[0]));
    }
    return 0;
}
