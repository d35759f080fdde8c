/* Integers converted to pointers keep their value as gcc does on LP64:
   signed ones are sign-extended ((void *)-1 is all ones, as MAP_FAILED and
   SIG_ERR are), unsigned ones zero-extended; and back again. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdint.h>
#include <sys/mman.h>

#define NO_BLOCK ((void *)-1)
#define TAG(p) ((uintptr_t)(p) & 0xf)

static void *stale = (void *)-1;
static char *marker = (char *)-16;
static void *wide = (void *)0xfffffff0u;

static void *lookup(int found, void *where)
{
    return found ? where : NO_BLOCK;
}

static const char *describe(void *p)
{
    if (p == NO_BLOCK) return "none";
    if (p == (void *)0) return "null";
    return "block";
}

int main(void)
{
    int minus_one = -1;
    short minus_two = -2;
    signed char minus_three = -3;
    unsigned int big = 0xffffffffu;
    long long minus_four = -4;
    double cell = 1.5;

    void *a = (void *)minus_one;
    void *b = (void *)(intptr_t)minus_two;
    char *c = (char *)minus_three;
    void *d = (void *)big;
    void *e = (void *)minus_four;

    printf("a %lx\n", (unsigned long)a);
    printf("b %lx\n", (unsigned long)b);
    printf("c %lx\n", (unsigned long)c);
    printf("d %lx\n", (unsigned long)d);
    printf("e %lx\n", (unsigned long)e);
    printf("back %d %d %d %u\n", (int)(intptr_t)a, (short)(intptr_t)b, (int)(long)c, (unsigned)(uintptr_t)d);
    printf("statics %d %d %lx\n", stale == a, marker == (char *)-16, (unsigned long)wide);
    printf("c + 3 == 0: %d\n", c + 3 == (char *)0);
    printf("lookup %s %s %s\n", describe(lookup(0, &cell)), describe(lookup(1, &cell)),
           describe(lookup(1, 0)));
    printf("tag %lu\n", (unsigned long)TAG((char *)minus_one));

    /* A length of 0 makes mmap fail: the result must equal MAP_FAILED. */
    void *map = mmap(NULL, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("mmap failed: %d\n", map == MAP_FAILED);
    void *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) {
        printf("mmap of a page failed\n");
        return 1;
    }
    ((int *)page)[10] = 7;
    int stored = ((int *)page)[10];
    printf("page %d unmapped %d\n", stored, munmap(page, 4096));
    return 0;
}
