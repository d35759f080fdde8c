/* Every C11 header and the POSIX headers real programs include, in one
   program, each used the way such programs use it: command-line parsing
   with getopt_long, a scratch directory and file through open/read/stat/
   opendir, timing and resource queries, a worker thread, signals, dynamic
   symbol lookup. Output is deterministic (times and ids are only checked). */
#define _GNU_SOURCE
#include <assert.h>
#include <complex.h>
#include <ctype.h>
#include <errno.h>
#include <fenv.h>
#include <float.h>
#include <inttypes.h>
#include <iso646.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <tgmath.h>
#include <time.h>
#include <uchar.h>
#include <wchar.h>
#include <wctype.h>
#include <strings.h>
#include <getopt.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/resource.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <sys/utsname.h>
#include <dirent.h>
#include <libgen.h>
#include <pthread.h>
#include <sched.h>
#include <dlfcn.h>

struct config {
    int verbose;
    int size;
    const char *output;
    int extra;
};

static volatile sig_atomic_t signalled = 0;
static pthread_mutex_t total_lock = PTHREAD_MUTEX_INITIALIZER;
static long total = 0;

static void on_signal(int sig)
{
    signalled = sig;
}

static noreturn void usage(const char *prog)
{
    fprintf(stderr, "usage: %s [-v] [--size N] [-o FILE]\n", prog);
    exit(1);
}

static void parse_args(int argc, char **argv, struct config *cfg)
{
    static const struct option options[] = {
        {"verbose", no_argument, NULL, 'v'},
        {"size", required_argument, NULL, 's'},
        {"output", required_argument, NULL, 'o'},
        {NULL, 0, NULL, 0},
    };
    int c, index = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "vs:o:", options, &index)) != -1) {
        switch (c) {
        case 'v': cfg->verbose = 1; break;
        case 's': cfg->size = atoi(optarg); break;
        case 'o': cfg->output = optarg; break;
        default: usage(argv[0]);
        }
    }
    cfg->extra = argc - optind;
}

static void *worker(void *arg)
{
    int n = *(int *)arg;
    long local = 0;
    for (int i = 1; i <= n; i++)
        local += i;
    sched_yield();
    pthread_mutex_lock(&total_lock);
    total += local;
    pthread_mutex_unlock(&total_lock);
    return NULL;
}

static int write_file(const char *path, const char *text)
{
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, S_IRUSR | S_IWUSR);
    if (fd < 0)
        return -1;
    ssize_t written = write(fd, text, strlen(text));
    close(fd);
    return written == (ssize_t)strlen(text) ? 0 : -1;
}

int main(void)
{
    char *args[] = {"solver", "-v", "--size", "64", "-o", "result.dat", "input.mesh", NULL};
    struct config cfg = {0, 16, "none", 0};
    parse_args(7, args, &cfg);
    printf("getopt: verbose %d size %d output %s extra %d\n", cfg.verbose, cfg.size, cfg.output,
           cfg.extra);

    /* strings.h, string.h, ctype.h, wctype.h, wchar.h, uchar.h */
    char buffer[16];
    bzero(buffer, sizeof buffer);
    strncpy(buffer, "Mesh", sizeof buffer - 1);
    printf("strings: %d %d %s %d\n", strcasecmp("Hello", "hELLO") == 0, ffs(8), buffer,
           toupper('q'));
    wchar_t wide[4] = {'a', 'b', '7', 0};
    char32_t letter = 'Z';
    char narrow[8];
    mbstate_t state;
    memset(&state, 0, sizeof state);
    printf("wide: %zu %c %d %zu\n", wcslen(wide), (int)towupper(wide[0]), iswdigit(wide[2]) != 0,
           c32rtomb(narrow, letter, &state));

    /* errno.h */
    printf("errno: ETXTBSY %d EOPNOTSUPP %d ENOTSUP %d ECHILD %d\n", ETXTBSY, EOPNOTSUPP, ENOTSUP,
           ECHILD);

    /* math.h with tgmath.h: sqrt of a float is sqrtf */
    float half = 2.0f;
    printf("tgmath: %.9g %.9g %.3f\n", (double)sqrt(half), sqrt(2.0), pow(2.0f, 10));

    /* fenv.h, locale.h, stdalign.h, iso646.h, setjmp.h, complex.h */
    printf("fenv: %d\n", fegetround() == FE_TONEAREST);
    printf("locale: %s '%s'\n", setlocale(LC_ALL, "C"), localeconv()->decimal_point);
    printf("align: %zu %zu jmp_buf %zu\n", alignof(double), alignof(struct config), sizeof(jmp_buf));
    bool ok = true, failed = false;
    if (ok and not failed)
        printf("iso646: and/not\n");

    /* a scratch directory and file: unistd.h, fcntl.h, sys/stat.h, dirent.h */
    char dir[64], path[96];
    snprintf(dir, sizeof dir, "/tmp/omp2gpu_headers_%ld", (long)getpid());
    if (mkdir(dir, S_IRWXU) != 0) {
        perror("mkdir");
        return 1;
    }
    snprintf(path, sizeof path, "%s/data.txt", dir);
    if (write_file(path, "0123456789\n") != 0) {
        perror("write");
        return 1;
    }
    struct stat st;
    int stat_rc = stat(path, &st);
    printf("stat: %d size %ld regular %d dir %d\n", stat_rc, (long)st.st_size, S_ISREG(st.st_mode),
           S_ISDIR(st.st_mode));
    char back[32] = {0};
    int fd = open(path, O_RDONLY);
    ssize_t got = read(fd, back, 4);
    off_t end = lseek(fd, 0, SEEK_END);
    close(fd);
    printf("read: %zd '%s' end %ld access %d\n", got, back, (long)end, access(path, R_OK));
    int found = 0;
    DIR *d = opendir(dir);
    struct dirent *entry;
    while (d && (entry = readdir(d)) != NULL)
        if (strcmp(entry->d_name, "data.txt") == 0)
            found = 1;
    if (d)
        closedir(d);
    printf("dirent: found %d\n", found);
    unlink(path);
    rmdir(dir);
    printf("cleanup: %d\n", stat(dir, &st) == -1 && errno == ENOENT);

    /* libgen.h */
    char p1[] = "/usr/lib/libm.so", p2[] = "/usr/lib/libm.so";
    printf("libgen: %s %s\n", dirname(p1), basename(p2));

    /* sys/time.h, time.h, sys/resource.h, sys/utsname.h, sys/wait.h, sys/mman.h */
    struct timeval tv;
    struct rusage usage;
    struct rlimit files;
    struct utsname host;
    printf("time: gettimeofday %d clock %d\n", gettimeofday(&tv, NULL) == 0 && tv.tv_sec > 0,
           clock() != (clock_t)-1);
    printf("resource: getrusage %d getrlimit %d\n", getrusage(RUSAGE_SELF, &usage),
           getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur > 0);
    int uname_rc = uname(&host);
    printf("uname: %d %s\n", uname_rc, host.sysname);
    int status = 0;
    errno = 0;
    pid_t child = waitpid(-1, &status, WNOHANG);
    printf("wait: %d %d exit %d\n", (int)child, errno == ECHILD, WEXITSTATUS(0x0300));
    long page = sysconf(_SC_PAGESIZE);
    int *mapped = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                       -1, 0);
    if (mapped == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    mapped[3] = 42;
    int kept = mapped[3];
    printf("mman: %d %d\n", kept, munmap(mapped, (size_t)page));

    /* signal.h */
    signal(SIGUSR1, on_signal);
    raise(SIGUSR1);
    printf("signal: %d\n", signalled == SIGUSR1);

    /* pthread.h, sched.h */
    pthread_t threads[2];
    int counts[2] = {100, 1000};
    for (int i = 0; i < 2; i++)
        pthread_create(&threads[i], NULL, worker, &counts[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(threads[i], NULL);
    printf("pthread: total %ld\n", total);

    /* dlfcn.h: the running program's own symbols */
    void *self = dlopen(NULL, RTLD_NOW);
    size_t (*length)(const char *) = self ? (size_t (*)(const char *))dlsym(self, "strlen") : NULL;
    printf("dlfcn: %d %zu\n", self != NULL, length ? length("offload") : 0);
    if (self)
        dlclose(self);

    /* stdio/stdlib/inttypes/limits/float/assert/stdint */
    int64_t big = INT64_C(1) << 40;
    assert(big > INT_MAX);
    printf("misc: %" PRId64 " %d %g\n", big, INT_MAX, FLT_EPSILON);
    return 0;
}
