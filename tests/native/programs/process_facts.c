/* What a process sees: its arguments, environment, standard input, exit status and the
 * signal it dies of (tests/native/test_native_executables.py runs it under
 * `omp2gpu run --native`). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    char line[256];
    int total = 0;
    #pragma omp target map(tofrom: total)
    for (int i = 1; i <= 10; i++) total += i;
    printf("argc=%d", argc);
    for (int i = 0; i < argc; i++) printf(" [%s]", argv[i]);
    printf("\nGREETING=%s total=%d\n", getenv("GREETING") ? getenv("GREETING") : "(unset)", total);
    while (fgets(line, sizeof line, stdin)) printf("read: %s", line);
    fprintf(stderr, "to stderr\n");
    fflush(stdout);
    if (argc > 1 && strcmp(argv[1], "abort") == 0) raise(SIGABRT);
    return argc > 1 ? atoi(argv[1]) : 0;
}
