/* Named critical sections guard different shared structures independently (a free
 * list and an event log), the unnamed one a third; the results are sorted before they
 * are printed, so the output does not depend on which thread got there first. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define ITEMS 400

struct node {
    int value;
    struct node *next;
};

struct event_log {
    int count;
    int codes[ITEMS];
};

static struct node *free_list = NULL;
static struct event_log log_book;
static long unnamed_total = 0;

static void push(struct node *n)
{
#pragma omp critical(free_list_lock)
    {
        n->next = free_list;
        free_list = n;
    }
}

static void record(int code)
{
#pragma omp critical(log_lock)
    log_book.codes[log_book.count++] = code;
}

static int compare_ints(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    struct node *pool = malloc(ITEMS * sizeof *pool);

#pragma omp parallel for schedule(dynamic, 3)
    for (int i = 0; i < ITEMS; i++) {
        pool[i].value = i * 3;
        push(&pool[i]);
        if (i % 4 == 0)
            record(i / 4);
#pragma omp critical
        unnamed_total += i;
    }

    int count = 0;
    long sum = 0;
    for (struct node *n = free_list; n != NULL; n = n->next) {
        count++;
        sum += n->value;
    }
    qsort(log_book.codes, log_book.count, sizeof(int), compare_ints);
    int in_order = 1;
    for (int k = 0; k < log_book.count; k++)
        in_order = in_order && log_book.codes[k] == k;
    printf("free list: %d nodes, sum %ld\n", count, sum);
    printf("log: %d events, each once: %d\n", log_book.count, in_order);
    printf("unnamed critical total %ld\n", unnamed_total);

    /* nested use: a named critical inside the unnamed one (different locks, no deadlock) */
    int pairs = 0;
#pragma omp parallel reduction(+:pairs)
    {
#pragma omp critical
        {
#pragma omp critical(log_lock)
            log_book.count--;
        }
        pairs++;
    }
    printf("log count after every thread removed one: %d\n", log_book.count + pairs);
    free(pool);
    return 0;
}
