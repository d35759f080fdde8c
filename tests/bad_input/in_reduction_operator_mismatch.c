/* expect: 16:46: error: 'in_reduction' of 'product' with '+' does not match the '*' of the 'task_reduction' clause */
#include <stdio.h>

struct node { double weight; struct node *next; };

int main(void)
{
    struct node nodes[4] = {{1.5, &nodes[1]}, {2.0, &nodes[2]}, {0.5, &nodes[3]}, {4.0, NULL}};
    double product = 1.0;
    #pragma omp parallel
    #pragma omp single
    {
        #pragma omp taskgroup task_reduction(*: product)
        for (struct node *n = nodes; n != NULL; n = n->next) {
            /* a participant must reduce with its task reduction's operator */
            #pragma omp task firstprivate(n) in_reduction(+: product)
            product *= n->weight;
        }
    }
    printf("%g\n", product);
    return 0;
}
