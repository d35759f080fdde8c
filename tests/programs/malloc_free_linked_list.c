/* Heap use: linked list build, reverse, insert sorted, delete, free; calloc and realloc. */
#include <stdio.h>
#include <stdlib.h>

struct node { int value; struct node *next; };

static struct node *push(struct node *head, int v)
{
    struct node *n = malloc(sizeof *n);
    n->value = v;
    n->next = head;
    return n;
}

static struct node *reverse(struct node *head)
{
    struct node *prev = NULL, *next;
    while (head) {
        next = head->next;
        head->next = prev;
        prev = head;
        head = next;
    }
    return prev;
}

static void insert_sorted(struct node **pp, int v)
{
    struct node *n = malloc(sizeof *n);
    n->value = v;
    while (*pp && (*pp)->value < v)
        pp = &(*pp)->next;
    n->next = *pp;
    *pp = n;
}

static int remove_value(struct node **pp, int v)
{
    while (*pp) {
        if ((*pp)->value == v) {
            struct node *dead = *pp;
            *pp = dead->next;
            free(dead);
            return 1;
        }
        pp = &(*pp)->next;
    }
    return 0;
}

static void print_list(const char *label, const struct node *n)
{
    printf("%s:", label);
    for (; n; n = n->next)
        printf(" %d", n->value);
    printf("\n");
}

static void free_list(struct node *n)
{
    while (n) {
        struct node *next = n->next;
        free(n);
        n = next;
    }
}

int main(void)
{
    struct node *list = NULL, *sorted = NULL;
    int i, *arr, *zeros, sum = 0;

    for (i = 1; i <= 8; i++)
        list = push(list, i * i);
    print_list("pushed", list);
    list = reverse(list);
    print_list("reversed", list);
    for (i = 0; i < 10; i++)
        insert_sorted(&sorted, (i * 37) % 11);
    print_list("sorted", sorted);
    i = remove_value(&sorted, 4);
    printf("remove 4: %d\n", i);
    i = remove_value(&sorted, 99);
    printf("remove 99: %d\n", i);
    i = remove_value(&sorted, 0);
    printf("remove 0: %d\n", i);
    print_list("after removes", sorted);
    free_list(list);
    free_list(sorted);

    zeros = calloc(100, sizeof *zeros);
    for (i = 0; i < 100; i++)
        sum += zeros[i];
    printf("calloc sum = %d\n", sum);
    free(zeros);

    arr = NULL;
    for (i = 0; i < 1000; i++) {
        if ((i & (i - 1)) == 0) /* grow at powers of two */
            arr = realloc(arr, sizeof *arr * (i ? 2 * i : 1));
        arr[i] = i;
    }
    sum = 0;
    for (i = 0; i < 1000; i++)
        sum += arr[i];
    printf("realloc'd array sum = %d\n", sum);
    free(arr);
    free(NULL);
    /* many small allocations */
    {
        char *blocks[64];
        long total = 0;
        for (i = 0; i < 64; i++) {
            int j;
            blocks[i] = malloc(i + 1);
            for (j = 0; j <= i; j++)
                blocks[i][j] = (char)(j + 1);
        }
        for (i = 63; i >= 0; i--) {
            total += blocks[i][i];
            free(blocks[i]);
        }
        printf("blocks total = %ld\n", total);
    }
    return 0;
}
