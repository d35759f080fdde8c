/* expect: 7:50: error: mapper cycle: mapper 'default' for 'struct node' -> mapper 'default' for 'struct node' */
/* A linked list's mapper that maps each node's successor through itself: mapping it would
   follow the list without end (a mapper cycle). */
struct node { int value; struct node *next; };

int main(void) {
#pragma omp declare mapper(struct node n) map(n, n.next[0:1])
    struct node last = {2, 0}, first = {1, &last};
#pragma omp target map(tofrom: first)
    first.value += 1;
    return first.value == 2 ? 0 : 1;
}
