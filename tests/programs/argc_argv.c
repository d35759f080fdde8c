/* Command-line arguments: argc, argv strings, argv[argc] == NULL, converting with atoi/strtol. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int i;
    long n;
    char *end;

    printf("argc = %d\n", argc);
    for (i = 1; i < argc; i++)
        printf("argv[%d] = %s (len %d)\n", i, argv[i], (int)strlen(argv[i]));
    printf("argv[argc] is NULL: %d\n", argv[argc] == NULL);
    printf("argv[0] nonempty: %d\n", argv[0] != NULL && argv[0][0] != '\0');
    if (argc >= 3) {
        n = strtol(argv[2], &end, 10);
        printf("strtol(argv[2]) = %ld, rest empty: %d\n", n, *end == '\0');
        printf("atoi(argv[2]) * 2 = %d\n", atoi(argv[2]) * 2);
        printf("atoi(argv[1]) = %d\n", atoi(argv[1]));
        printf("argv[1][0] = %c, upper-cased: ", argv[1][0]);
        for (i = 0; argv[1][i]; i++)
            putchar(argv[1][i] - 'a' + 'A');
        putchar('\n');
        /* argv strings are modifiable */
        argv[1][0] = 'A';
        printf("modified argv[1] = %s\n", argv[1]);
    }
    /* walk argv via pointer until NULL */
    {
        char **p = argv + 1;
        int count = 0;
        while (*p) {
            count += (int)strlen(*p);
            p++;
        }
        printf("total arg chars = %d\n", count);
    }
    return argc == 3 ? 0 : 1;
}
